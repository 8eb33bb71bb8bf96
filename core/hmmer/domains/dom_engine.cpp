#include "core/hmmer/domains/dom_engine.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "core/base/parallel.hpp"

namespace warpdp {
namespace {

// docs/hmmer-filters.md §16.4: stages A to D over batches cut by residues.
class DomStagedEngine final : public DomEngine {
public:
    DomStagedEngine(std::string name, DomKernels host, std::unique_ptr<DomBatchKernels> batch, unsigned threads,
                    uint64_t batch_residues)
        : name_(std::move(name)), host_(host), batch_(std::move(batch)), threads_(threads),
          batch_residues_(batch_residues) {}
    std::string name() const override { return name_; }
    DomStageSeconds stage_seconds() const override {
        DomStageSeconds s = seconds_;
        s.alignment = batch_->alignment_seconds();
        return s;
    }

    using DomEngine::search;
    void search(std::span<const DomSearchCall> calls, const DomSettings& settings) override {
        // Batches of whole targets in call order, cut by residues across calls.
        std::vector<Piece> pieces;
        uint64_t residues = 0;
        for (uint32_t c = 0; c < calls.size(); ++c)
            for (size_t t = 0; t < calls[c].targets.size(); ++t) {
                const uint64_t L = calls[c].targets[t].dsq.size();
                if (!pieces.empty() && residues + L > batch_residues_) {
                    run_batch(calls, pieces, settings);
                    pieces.clear();
                    residues = 0;
                }
                if (pieces.empty() || pieces.back().call != c) pieces.push_back({c, t, 0});
                ++pieces.back().count;
                residues += L;
            }
        if (!pieces.empty()) run_batch(calls, pieces, settings);
    }

private:
    // A batch's targets [first, first + count) of one call.
    struct Piece {
        uint32_t call;
        size_t first, count;
    };

    void run_batch(std::span<const DomSearchCall> calls, std::span<const Piece> pieces, const DomSettings& settings) {
        // The batch's targets flattened: target k is of piece piece_of_[k].
        piece_of_.clear();
        index_.clear();
        for (uint32_t p = 0; p < pieces.size(); ++p)
            for (size_t t = 0; t < pieces[p].count; ++t) {
                piece_of_.push_back(p);
                index_.push_back(static_cast<uint32_t>(t));
            }
        const size_t n = piece_of_.size();
        const auto targets_of = [&](const Piece& p) { return calls[p.call].targets.subspan(p.first, p.count); };
        const auto target = [&](size_t k) -> const DomTarget& { return targets_of(pieces[piece_of_[k]])[index_[k]]; };
        const auto model = [&](size_t k) -> const DomModel& { return calls[pieces[piece_of_[k]].call].model; };

        // A: the parsers, into one arena of specials (kept from batch to batch).
        size_t floats = 0;
        for (size_t k = 0; k < n; ++k) floats += 2 * (target(k).dsq.size() + 1) * kDomSpecials;
        if (rows_.size() < floats) rows_.resize(floats);
        parsers_.assign(n, {});
        float* at = rows_.data();
        for (size_t k = 0; k < n; ++k) {
            const size_t len = (target(k).dsq.size() + 1) * kDomSpecials;
            parsers_[k].fwd_rows = {at, len};
            parsers_[k].bck_rows = {at + len, len};
            at += 2 * len;
        }
        std::vector<DomParsersCall> a_calls;
        for (size_t p = 0, k = 0; p < pieces.size(); k += pieces[p++].count)
            a_calls.push_back({calls[pieces[p].call].model, targets_of(pieces[p]),
                               std::span(parsers_).subspan(k, pieces[p].count)});
        auto t0 = Clock::now();
        batch_->parsers(a_calls);
        lap(seconds_.parsers, t0);

        // B: planning; each target reseeds its generator itself, so no
        // result depends on what a workspace did before. A job names its
        // target by index within its piece (its call's targets).
        // The longest targets first, so none starts at the loop's end.
        plans_.assign(n, DomPlan{});
        by_length_.resize(n);
        for (size_t k = 0; k < n; ++k) by_length_[k] = k;
        std::stable_sort(by_length_.begin(), by_length_.end(),
                         [&](size_t a, size_t b) { return target(a).dsq.size() > target(b).dsq.size(); });
        const unsigned workers = parallel_workers(n, threads_, 1);
        while (plan_ws_.size() < workers) plan_ws_.emplace_back(settings.seed);
        parallel_for_workers(n, threads_, 1, [&](unsigned w, size_t x) {
            const size_t k = by_length_[x];
            dom_plan_target(host_, model(k), target(k), settings, parsers_[k], index_[k], plan_ws_[w], plans_[k]);
        });
        lap(seconds_.planning, t0);

        // C: every envelope of the batch, a call per piece.
        jobs_.clear();
        first_job_.assign(n + 1, 0);
        for (size_t k = 0; k < n; ++k) {
            jobs_.insert(jobs_.end(), plans_[k].jobs.begin(), plans_[k].jobs.end());
            first_job_[k + 1] = jobs_.size();
        }
        envs_.assign(jobs_.size(), {});
        std::vector<DomEnvelopesCall> c_calls;
        for (size_t p = 0, k = 0; p < pieces.size(); k += pieces[p++].count) {
            const size_t j0 = first_job_[k], j1 = first_job_[k + pieces[p].count];
            c_calls.push_back({calls[pieces[p].call].model, targets_of(pieces[p]),
                               std::span<const DomEnvelopeJob>(jobs_).subspan(j0, j1 - j0),
                               std::span(envs_).subspan(j0, j1 - j0)});
        }
        batch_->envelopes(c_calls);
        lap(seconds_.envelopes, t0);

        // D: the hits.
        const std::span<const DomEnvelopeOut> envs = envs_;
        parallel_for(n, threads_, 1, [&](size_t k) {
            const Piece& p = pieces[piece_of_[k]];
            calls[p.call].out[p.first + index_[k]].outcome =
                dom_finish_target(model(k), target(k), settings, plans_[k],
                                  envs.subspan(first_job_[k], first_job_[k + 1] - first_job_[k]),
                                  calls[p.call].out[p.first + index_[k]].hit);
        });
        lap(seconds_.finish, t0);
    }

    using Clock = std::chrono::steady_clock;
    // Adds the time since `since` to `to`, and restarts `since`.
    static void lap(double& to, Clock::time_point& since) {
        const auto now = Clock::now();
        to += std::chrono::duration<double>(now - since).count();
        since = now;
    }

    std::string name_;
    DomKernels host_;
    std::unique_ptr<DomBatchKernels> batch_;
    unsigned threads_;
    uint64_t batch_residues_;
    std::vector<uint32_t> piece_of_, index_;
    std::vector<size_t> by_length_;
    std::vector<float> rows_;
    std::vector<DomParserOut> parsers_;
    std::vector<DomPlan> plans_;
    std::vector<DomPlanWorkspace> plan_ws_;
    std::vector<DomEnvelopeJob> jobs_;
    std::vector<size_t> first_job_;
    std::vector<DomEnvelopeOut> envs_;
    DomStageSeconds seconds_;
};

}  // namespace

std::unique_ptr<DomEngine> make_dom_staged_engine(std::string name, DomKernels host,
                                                  std::unique_ptr<DomBatchKernels> batch, unsigned threads,
                                                  uint64_t batch_residues) {
    return std::make_unique<DomStagedEngine>(std::move(name), host, std::move(batch), threads, batch_residues);
}

std::unique_ptr<DomEngine> make_dom_reference_engine() {
    return make_dom_staged_engine("reference", dom_reference_kernels(),
                                  make_dom_cpu_batch_kernels("reference", dom_reference_kernels(), 1), 1);
}

std::unique_ptr<DomEngine> make_dom_cpu_engine(unsigned threads) {
    return make_dom_staged_engine("cpu-vector4", dom_vector_kernels(),
                                  make_dom_cpu_batch_kernels("cpu-vector4", dom_vector_kernels(), threads), threads);
}

}  // namespace warpdp
