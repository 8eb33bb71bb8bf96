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

// The Forward/Backward engine's matrices take at most this much of a card,
// so the optimal-accuracy engine's own matrices and traces find room
// beside them (§16.10); `share` of it when several instances share the card.
constexpr uint64_t kMatrixBudgetCap = uint64_t{8} << 30;

uint64_t matrix_budget(int device, double share) {
    if (!(share > 0 && share <= 1)) throw InternalError("a CUDA batch kernels' share of the card outside (0, 1]");
    for (const GpuInfo& g : list_gpus())
        if (g.index == device)
            return std::max<uint64_t>(
                1, static_cast<uint64_t>(static_cast<double>(std::min(kMatrixBudgetCap, g.memory_bytes / 2)) * share));
    throw ResourceError("no CUDA device " + std::to_string(device));
}

class DomCudaBatchKernels final : public DomBatchKernels {
public:
    DomCudaBatchKernels(int device, double share)
        : fb_(make_dom_cuda_engine(device, matrix_budget(device, share))), oa_(make_dom_oa_cuda_engine(device)) {}

    std::string name() const override { return "cuda:" + std::to_string(fb_->device()); }
    double alignment_seconds() const override { return oa_seconds_; }

    void parsers(const DomModel& model, std::span<const DomTarget> targets, std::span<DomParserOut> out) override {
        use(model);
        jobs_.clear();
        for (const DomTarget& t : targets) jobs_.push_back({t.dsq, dom_special_odds(t.dsq.size(), true), false});
        results_.assign(jobs_.size(), {});
        fb_->run(jobs_, results_);
        for (size_t t = 0; t < targets.size(); ++t) {
            DomParserOut& o = out[t];
            o.fwdsc = results_[t].fwd_score;
            if (std::isnan(o.fwdsc)) continue;  // as dom_run_parsers: nothing else is read
            o.bcksc = results_[t].bck_score;
            if (std::isnan(o.bcksc)) continue;
            fb_->specials(t, fwd_, bck_);
            o.bck_own_scales = bck_.has_own_scales;
            std::ranges::copy(fwd_.specials(), o.fwd_rows.begin());
            std::ranges::copy(bck_.specials(), o.bck_rows.begin());
        }
    }

    void envelopes(const DomModel& model, std::span<const DomTarget> targets, std::span<const DomEnvelopeJob> jobs,
                   std::span<DomEnvelopeOut> out) override {
        use(model);
        jobs_.clear();
        for (const DomEnvelopeJob& z : jobs) {
            const DomTarget& t = targets[z.target];
            jobs_.push_back({t.dsq.subspan(static_cast<size_t>(z.i - 1), static_cast<size_t>(z.j - z.i + 1)),
                             dom_special_odds(t.dsq.size(), false), true});
        }
        results_.assign(jobs_.size(), {});
        fb_->run(jobs_, results_, [&](size_t first, size_t count) { finish_batch(model, jobs, first, count, out); });
    }

private:
    // (every call: a caller's profiles may share an address, and the odds are small)
    void use(const DomModel& model) { fb_->set_model(*model.odds); }

    // The batch [first, first + count) is resident: each job's status as
    // dom_run_envelope gives it, then the optimal-accuracy stage on the
    // decoded ones, straight from the device's posteriors.
    void finish_batch(const DomModel& model, std::span<const DomEnvelopeJob> jobs, size_t first, size_t count,
                      std::span<DomEnvelopeOut> out) {
        const float* arena = fb_->arena();
        oa_envs_.clear();
        oa_jobs_.clear();
        for (size_t z = first; z < first + count; ++z) {
            const DomCudaResult& r = results_[z];
            DomEnvelopeOut& o = out[z];
            o = DomEnvelopeOut{};
            o.envsc = r.fwd_score;
            if (std::isnan(r.fwd_score)) o.status = DomEnvelopeStatus::forward_range_error;
            else if (std::isnan(r.bck_score)) o.status = DomEnvelopeStatus::backward_range_error;
            else if (r.decoding != DomDecodeStatus::ok) o.status = DomEnvelopeStatus::decoding_overflow;
            if (o.status != DomEnvelopeStatus::ok) continue;
            const DomDeviceMatrix pp = fb_->posterior(z);
            oa_envs_.push_back({static_cast<uint64_t>(pp.cells - arena), static_cast<uint64_t>(pp.specials - arena),
                                pp.L, jobs_[z].odds});
            oa_jobs_.push_back(z);
        }
        if (oa_jobs_.empty()) return;
        const auto t0 = std::chrono::steady_clock::now();
        oa_->run(*model.odds, Alphabet::amino(), DomOaPosteriors{arena, arena, oa_envs_}, oa_out_);
        for (size_t e = 0; e < oa_jobs_.size(); ++e) {
            const size_t z = oa_jobs_[e];
            DomEnvelopeOut& o = out[z];
            o.oasc = oa_out_.oasc[e];
            dom_oa_unpack_trace(oa_out_, e, model.odds->M, oa_envs_[e].L, o.trace, jobs[z].i - 1);
            if (jobs[z].null2) {
                const std::span<const float> n2 = oa_out_.null2_of(e);
                o.null2.assign(n2.begin(), n2.end());
            }
        }
        oa_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    std::unique_ptr<DomCudaEngine> fb_;
    std::unique_ptr<DomOaEngine> oa_;
    std::vector<DomCudaJob> jobs_;
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
