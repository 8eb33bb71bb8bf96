#include "core/hmmer/domains/dom_engine.hpp"

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

    void search(const DomModel& model, std::span<const DomTarget> targets, const DomSettings& settings,
                std::span<DomResult> out) override {
        for (size_t b = 0; b < targets.size();) {
            size_t e = b + 1;
            for (uint64_t residues = targets[b].dsq.size();
                 e < targets.size() && residues + targets[e].dsq.size() <= batch_residues_; ++e)
                residues += targets[e].dsq.size();
            run_batch(model, targets.subspan(b, e - b), settings, out.subspan(b, e - b));
            b = e;
        }
    }

private:
    void run_batch(const DomModel& model, std::span<const DomTarget> targets, const DomSettings& settings,
                   std::span<DomResult> out) {
        const size_t n = targets.size();
        // A: the parsers, into one arena of specials (kept from batch to batch).
        size_t floats = 0;
        for (const DomTarget& t : targets) floats += 2 * (t.dsq.size() + 1) * kDomSpecials;
        if (rows_.size() < floats) rows_.resize(floats);
        parsers_.assign(n, {});
        float* at = rows_.data();
        for (size_t t = 0; t < n; ++t) {
            const size_t len = (targets[t].dsq.size() + 1) * kDomSpecials;
            parsers_[t].fwd_rows = {at, len};
            parsers_[t].bck_rows = {at + len, len};
            at += 2 * len;
        }
        auto t0 = Clock::now();
        batch_->parsers(model, targets, parsers_);
        lap(seconds_.parsers, t0);

        // B: planning; each target reseeds its generator itself, so no
        // result depends on what a workspace did before.
        plans_.assign(n, DomPlan{});
        const unsigned workers = parallel_workers(n, threads_, 1);
        while (plan_ws_.size() < workers) plan_ws_.emplace_back(settings.seed);
        parallel_for_workers(n, threads_, 1, [&](unsigned w, size_t t) {
            dom_plan_target(host_, model, targets[t], settings, parsers_[t], static_cast<uint32_t>(t), plan_ws_[w],
                            plans_[t]);
        });

        lap(seconds_.planning, t0);

        // C: every envelope of the batch.
        jobs_.clear();
        first_job_.assign(n + 1, 0);
        for (size_t t = 0; t < n; ++t) {
            jobs_.insert(jobs_.end(), plans_[t].jobs.begin(), plans_[t].jobs.end());
            first_job_[t + 1] = jobs_.size();
        }
        envs_.assign(jobs_.size(), {});
        batch_->envelopes(model, targets, jobs_, envs_);
        lap(seconds_.envelopes, t0);

        // D: the hits.
        const std::span<const DomEnvelopeOut> envs = envs_;
        parallel_for(n, threads_, 1, [&](size_t t) {
            out[t].outcome = dom_finish_target(model, targets[t], settings, plans_[t],
                                               envs.subspan(first_job_[t], first_job_[t + 1] - first_job_[t]),
                                               out[t].hit);
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
