#include "kernels/dom/dom_batch_cuda.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "kernels/common/gpus.hpp"
#include "kernels/dom/dom_cuda.hpp"
#include "kernels/dom/dom_optacc_cuda.hpp"

namespace warpdp {
namespace {

// The Forward/Backward engine's matrices take at most half a card (and at
// most this), so the optimal-accuracy engine's own matrices and traces find
// room beside them (§16.10); `share` of it when several instances share the
// card. A batch's jobs are what runs at once, and a full job of a large
// model holds tens of MB: a smaller cap would leave the card idle.
constexpr uint64_t kMatrixBudgetCap = uint64_t{64} << 30;

uint64_t matrix_budget(int device, double share) {
    if (!(share > 0 && share <= 1)) throw InternalError("a CUDA batch kernels' share of the card outside (0, 1]");
    for (const GpuInfo& g : list_gpus())
        if (g.index == device)
            return std::max<uint64_t>(
                1, static_cast<uint64_t>(static_cast<double>(std::min(kMatrixBudgetCap, g.memory_bytes / 2)) * share));
    throw ResourceError("no CUDA device " + std::to_string(device));
}

// The optimal-accuracy engine's OA matrices of one launch: 4 GiB of a card
// (`share` of it when several instances share the card), at least the
// engine's default of 1 GiB. A launch holds the envelopes of every model of
// a resident batch (§16.10), so more room means fewer, fuller launches.
uint64_t oa_scratch(double share) {
    constexpr uint64_t kGiB = uint64_t{1} << 30;
    return std::max<uint64_t>(kGiB, static_cast<uint64_t>(static_cast<double>(4 * kGiB) * share));
}

class DomCudaBatchKernels final : public DomBatchKernels {
public:
    DomCudaBatchKernels(int device, double share)
        : fb_(make_dom_cuda_engine(device, matrix_budget(device, share))),
          oa_(make_dom_oa_cuda_engine(device, oa_scratch(share))) {}

    std::string name() const override { return "cuda:" + std::to_string(fb_->device()); }
    double alignment_seconds() const override { return oa_seconds_; }

    // Every call's targets in one run of the engine, job model c for call c.
    void parsers(std::span<const DomParsersCall> calls) override {
        models_.clear();
        jobs_.clear();
        for (size_t c = 0; c < calls.size(); ++c) {
            models_.push_back(calls[c].model.odds);
            for (const DomTarget& t : calls[c].targets)
                jobs_.push_back({t.dsq, dom_special_odds(t.dsq.size(), true), false, static_cast<uint32_t>(c)});
        }
        if (jobs_.empty()) return;
        // (every call: a caller's profiles may share an address, and the odds are small)
        fb_->set_models(models_);
        results_.assign(jobs_.size(), {});
        fb_->run(jobs_, results_);
        size_t z = 0;
        for (const DomParsersCall& call : calls)
            for (size_t t = 0; t < call.targets.size(); ++t, ++z) {
                DomParserOut& o = call.out[t];
                o.fwdsc = results_[z].fwd_score;
                if (std::isnan(o.fwdsc)) continue;  // as dom_run_parsers: nothing else is read
                o.bcksc = results_[z].bck_score;
                if (std::isnan(o.bcksc)) continue;
                fb_->specials(z, fwd_, bck_);
                o.bck_own_scales = bck_.has_own_scales;
                std::ranges::copy(fwd_.specials(), o.fwd_rows.begin());
                std::ranges::copy(bck_.specials(), o.bck_rows.begin());
            }
    }

    // Every call's jobs in one run of the engine; each resident batch's
    // decoded envelopes, of whatever models, in one optimal-accuracy run.
    void envelopes(std::span<const DomEnvelopesCall> calls) override {
        models_.clear();
        jobs_.clear();
        where_.clear();
        for (size_t c = 0; c < calls.size(); ++c) {
            const DomEnvelopesCall& call = calls[c];
            models_.push_back(call.model.odds);
            for (size_t k = 0; k < call.jobs.size(); ++k) {
                const DomEnvelopeJob& z = call.jobs[k];
                const DomTarget& t = call.targets[z.target];
                jobs_.push_back({t.dsq.subspan(static_cast<size_t>(z.i - 1), static_cast<size_t>(z.j - z.i + 1)),
                                 dom_special_odds(t.dsq.size(), false), true, static_cast<uint32_t>(c)});
                where_.push_back(k);
            }
        }
        if (jobs_.empty()) return;
        fb_->set_models(models_);
        results_.assign(jobs_.size(), {});
        fb_->run(jobs_, results_, [&](size_t first, size_t count) { finish_batch(calls, first, count); });
    }

private:
    // The batch [first, first + count) is resident: each job's status as
    // dom_run_envelope gives it, then the optimal-accuracy stage on the
    // decoded ones, straight from the device's posteriors.
    void finish_batch(std::span<const DomEnvelopesCall> calls, size_t first, size_t count) {
        const float* arena = fb_->arena();
        oa_envs_.clear();
        oa_jobs_.clear();
        for (size_t z = first; z < first + count; ++z) {
            const DomCudaResult& r = results_[z];
            DomEnvelopeOut& o = calls[jobs_[z].model].out[where_[z]];
            o = DomEnvelopeOut{};
            o.envsc = r.fwd_score;
            if (std::isnan(r.fwd_score)) o.status = DomEnvelopeStatus::forward_range_error;
            else if (std::isnan(r.bck_score)) o.status = DomEnvelopeStatus::backward_range_error;
            else if (r.decoding != DomDecodeStatus::ok) o.status = DomEnvelopeStatus::decoding_overflow;
            if (o.status != DomEnvelopeStatus::ok) continue;
            const DomDeviceMatrix pp = fb_->posterior(z);
            oa_envs_.push_back({static_cast<uint64_t>(pp.cells - arena), static_cast<uint64_t>(pp.specials - arena),
                                pp.L, jobs_[z].odds, jobs_[z].model});
            oa_jobs_.push_back(z);
        }
        if (oa_jobs_.empty()) return;
        const auto t0 = std::chrono::steady_clock::now();
        oa_->run(models_, Alphabet::amino(), DomOaPosteriors{arena, arena, oa_envs_}, oa_out_);
        for (size_t e = 0; e < oa_jobs_.size(); ++e) {
            const size_t z = oa_jobs_[e];
            const DomEnvelopesCall& call = calls[jobs_[z].model];
            const DomEnvelopeJob& job = call.jobs[where_[z]];
            DomEnvelopeOut& o = call.out[where_[z]];
            o.oasc = oa_out_.oasc[e];
            dom_oa_unpack_trace(oa_out_, e, call.model.odds->M, oa_envs_[e].L, o.trace, job.i - 1);
            if (job.null2) {
                const std::span<const float> n2 = oa_out_.null2_of(e);
                o.null2.assign(n2.begin(), n2.end());
            }
        }
        oa_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    std::unique_ptr<DomCudaEngine> fb_;
    std::unique_ptr<DomOaEngine> oa_;
    std::vector<const FwdProfile*> models_;  // model c: call c's
    std::vector<DomCudaJob> jobs_;           // every call's, in call order
    std::vector<size_t> where_;              // envelopes(): job z is jobs_[z].model's call's job where_[z]
    std::vector<DomCudaResult> results_;
    DomMatrix fwd_, bck_;
    std::vector<DomOaEnvelope> oa_envs_;
    std::vector<size_t> oa_jobs_;
    DomOaResults oa_out_;
    double oa_seconds_ = 0;
};

}  // namespace

std::unique_ptr<DomBatchKernels> make_dom_cuda_batch_kernels(int device, double share) {
    return std::make_unique<DomCudaBatchKernels>(device, share);
}

}  // namespace warpdp
