// The CUDA optimal-accuracy engine (docs/hmmer-filters.md §16.9). A call
// takes envelopes of one model or several (the odds of those it uses
// uploaded once, with a table of where each model's are) and cuts them into
// launches whose OA matrices fit the scratch bound; each launch runs the
// fill, the traceback and null2 on one stream. A traceback buffer is sized
// for one domain (L + its model's M + 16 steps); a trace that needs more is
// counted to its end and run again alone with room for it. null2's degenerate codes are finished on the host, in
// dom_null2's arithmetic (a few adds per code, no reason for a kernel).
#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/domains/dom_lanes.hpp"
#include "kernels/common/cuda_check.cuh"
#include "kernels/dom/dom_optacc_cuda.hpp"
#include "kernels/dom/dom_optacc_kernels.cuh"
#include "kernels/dom/dom_optacc_warp_kernel.cuh"

namespace warpdp {
namespace {

using namespace warpdp::cuda;

constexpr uint64_t kScratchBytes = uint64_t{1} << 30;  // OA matrices of one launch (default)
constexpr unsigned kThreads = 128;
// The warp fill's shared memory: at most this much a block (no opt-in),
// at most kWarpsPerBlock envelopes a block; wider models take the
// four-thread fill.
constexpr uint64_t kWarpBlockSmem = 48 << 10;
constexpr uint64_t kWarpsPerBlock = 4;

uint64_t warp_region_bytes(int Q) { return uint64_t{dom_oa_warp_region_floats(dom_oa_warp_Pp(Q))} * sizeof(float); }

template <typename T>
void upload(DeviceBuffer<T>& dst, const std::vector<T>& src, cudaStream_t st) {
    dst.reserve(std::max<size_t>(src.size(), 1));
    WARPDP_CUDA_CHECK(cudaMemcpyAsync(dst.get(), src.data(), src.size() * sizeof(T), cudaMemcpyHostToDevice, st));
}
template <typename T>
void download(std::vector<T>& dst, const T* src, size_t n, cudaStream_t st) {
    dst.resize(n);
    if (n > 0) WARPDP_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src, n * sizeof(T), cudaMemcpyDeviceToHost, st));
}
unsigned blocks_for(uint64_t threads) { return static_cast<unsigned>((threads + kThreads - 1) / kThreads); }

class CudaDomOaEngine final : public DomOaEngine {
public:
    using DomOaEngine::run;
    using DomOaEngine::run_host;

    CudaDomOaEngine(int device, const DomOaTestHooks& h)
        : device_(device),
          scratch_bytes_(h.oa_scratch_bytes > 0 ? h.oa_scratch_bytes : kScratchBytes),
          trace_steps_(h.trace_steps),
          keep_ox_(h.keep_oa_matrix),
          scatter_(h.scatter_upload),
          fill_form_(h.fill_form) {
        open_devices({device}, "optimal-accuracy");
        DeviceGuard guard(device_);
        stream_ = std::make_unique<Stream>();
    }

    void run(std::span<const FwdProfile* const> models, const Alphabet& abc, const DomOaPosteriors& pp,
             DomOaResults& out) override {
        DeviceGuard guard(device_);
        const cudaStream_t st = stream_->get();
        const auto envs = pp.envelopes;
        const size_t n = envs.size();
        // only the models the envelopes use go up (a caller may pass all its models)
        used_.assign(models.size(), nullptr);
        for (const DomOaEnvelope& e : envs) {
            if (e.L == 0) throw InternalError("optimal accuracy needs envelopes of at least one residue");
            if (e.model >= models.size() || !models[e.model])
                throw InternalError("optimal accuracy: an envelope of model " + std::to_string(e.model) + ", " +
                                    std::to_string(models.size()) + " given");
            used_[e.model] = models[e.model];
        }
        for (const FwdProfile* fp : used_)
            if (fp && (abc.K() > fp->Kp || abc.Kp() < abc.K() + 3))
                throw InternalError("optimal accuracy: alphabet and profile disagree");
        out = DomOaResults{};
        out.Kp = abc.Kp();
        out.oasc.resize(n);
        out.trace_error.resize(n);
        out.null2.assign(n * static_cast<size_t>(abc.Kp()), 0.0f);
        out.step_off.assign(1, 0);
        if (keep_ox_) out.ox_cells_off.assign(1, 0), out.ox_specials_off.assign(1, 0);
        if (n == 0) return;

        dom_model_tables(used_, host_emit_, host_trans_, models_);
        upload(trans_, host_trans_, st);
        upload(emit_, host_emit_, st);
        upload(models_dev_, models_, st);
        DomOaParams p{};
        p.pp_cells = pp.cells;
        p.pp_specials = pp.specials;
        p.trans = trans_.get();
        p.emit = emit_.get();
        p.models = models_dev_.get();
        p.K = abc.K();
        auto ox_bytes = [&](const DomOaEnvelope& e) {
            return (e.L + 1) * (row_cells(e) + kDomSpecials) * sizeof(float);
        };

        for (size_t first = 0; first < n;) {
            // one launch: envelopes whose OA matrices fit the bound (at least one)
            size_t last = first;
            uint64_t bytes = 0;
            while (last < n && (last == first || bytes + ox_bytes(envs[last]) <= scratch_bytes_)) bytes += ox_bytes(envs[last++]);
            launch(p, envs.subspan(first, last - first), first, st, out);
            first = last;
        }
        finish_null2(abc, n, out);
    }

    void run_host(std::span<const FwdProfile* const> models, const Alphabet& abc, std::span<const DomMatrix* const> pp,
                  std::span<const DomSpecialOdds> odds, std::span<const uint32_t> model_of, DomOaResults& out) override {
        if (pp.size() != odds.size()) throw InternalError("optimal accuracy: one set of special odds per envelope");
        if (!model_of.empty() && model_of.size() != pp.size())
            throw InternalError("optimal accuracy: one model index per envelope");
        DeviceGuard guard(device_);
        host_cells_.clear();
        host_specials_.clear();
        std::vector<DomOaEnvelope> envs(pp.size());
        for (size_t e = 0; e < pp.size(); ++e) {
            const uint32_t mi = model_of.empty() ? 0 : model_of[e];
            if (mi >= models.size() || !models[mi])
                throw InternalError("optimal accuracy: an envelope of model " + std::to_string(mi) + ", " +
                                    std::to_string(models.size()) + " given");
            const DomMatrix& m = *pp[e];
            if (!m.full() || m.M() != models[mi]->M || m.Q() != models[mi]->Q || m.L() == 0)
                throw InternalError("optimal accuracy needs full posterior matrices of the profile's shape");
            envs[e].L = m.L();
            envs[e].odds = odds[e];
            envs[e].model = mi;
        }
        auto put_specials = [&](size_t e, std::vector<float>& to) {
            envs[e].specials = to.size();
            const DomMatrix& m = *pp[e];
            for (uint64_t i = 0; i <= m.L(); ++i)
                for (int s = 0; s < kDomSpecials; ++s) to.push_back(m.x(i, static_cast<DomSpecial>(s)));
        };
        auto put_cells = [&](size_t e, std::vector<float>& to) {
            envs[e].cells = to.size();
            const DomMatrix& m = *pp[e];
            to.insert(to.end(), m.row(0), m.row(0) + (m.L() + 1) * m.row_floats());
        };
        const cudaStream_t st = stream_->get();
        if (scatter_) {
            for (size_t e = pp.size(); e-- > 0;) {
                host_cells_.insert(host_cells_.end(), 1 + e % 5, std::numeric_limits<float>::quiet_NaN());
                put_specials(e, host_cells_);
                host_cells_.insert(host_cells_.end(), 3, std::numeric_limits<float>::quiet_NaN());
                put_cells(e, host_cells_);
            }
            upload(up_cells_, host_cells_, st);
            run(models, abc, DomOaPosteriors{up_cells_.get(), up_cells_.get(), envs}, out);
            return;
        }
        for (size_t e = 0; e < pp.size(); ++e) {
            put_specials(e, host_specials_);
            put_cells(e, host_cells_);
        }
        upload(up_cells_, host_cells_, st);
        upload(up_specials_, host_specials_, st);
        run(models, abc, DomOaPosteriors{up_cells_.get(), up_specials_.get(), envs}, out);
    }

private:
    // Floats of a row of an envelope's cells, in its model's shape.
    uint64_t row_cells(const DomOaEnvelope& e) const {
        return static_cast<uint64_t>(models_[e.model].Q) * kDomCells * kFwdLanes;
    }

    void launch(DomOaParams p, std::span<const DomOaEnvelope> envs, size_t base, cudaStream_t st, DomOaResults& out) {
        const size_t n = envs.size();
        jobs_.resize(n);
        uint64_t ox_c = 0, ox_s = 0, steps = 0, usage = 0;
        for (size_t j = 0; j < n; ++j) {
            const DomModelDesc& md = models_[envs[j].model];
            DomOaJob& job = jobs_[j];
            job.pp_cells = envs[j].cells;
            job.pp_specials = envs[j].specials;
            job.L = envs[j].L;
            job.odds = envs[j].odds;
            job.model = envs[j].model;
            job.ox_cells = ox_c;
            job.ox_specials = ox_s;
            job.step_off = steps;
            job.step_cap = trace_steps_ > 0 ? trace_steps_ : envs[j].L + static_cast<uint64_t>(md.M) + 16;
            job.usage = usage;
            ox_c += (envs[j].L + 1) * row_cells(envs[j]);
            ox_s += (envs[j].L + 1) * kDomSpecials;
            steps += job.step_cap;
            usage += static_cast<uint64_t>(md.Q) * 8 + 3;
        }
        upload(jobs_dev_, jobs_, st);
        ox_cells_.reserve(ox_c);
        ox_specials_.reserve(ox_s);
        steps_.reserve(steps);
        step_pp_.reserve(steps);
        nsteps_.reserve(n);
        error_.reserve(n);
        oasc_.reserve(n);
        usage_.reserve(usage);
        null2_.reserve(n * static_cast<uint64_t>(p.K));
        p.jobs = jobs_dev_.get();
        p.n = static_cast<uint32_t>(n);
        p.ox_cells = ox_cells_.get();
        p.ox_specials = ox_specials_.get();
        p.oasc = oasc_.get();
        p.steps = steps_.get();
        p.step_pp = step_pp_.get();
        p.nsteps = nsteps_.get();
        p.error = error_.get();
        p.usage = usage_.get();
        p.null2 = null2_.get();
        fill(p, envs, st);
        WARPDP_CUDA_CHECK_LAUNCH((dom_oa_trace_kernel<<<blocks_for(n), kThreads, 0, st>>>(p)));
        const size_t smem = static_cast<size_t>(p.K) * kFwdLanes * sizeof(float);
        WARPDP_CUDA_CHECK_LAUNCH((dom_oa_null2_kernel<<<static_cast<unsigned>(n), kThreads, smem, st>>>(p)));

        std::vector<float> oasc, n2;
        std::vector<uint64_t> nsteps;
        std::vector<uint8_t> err;
        std::vector<uint32_t> rec;
        std::vector<float> rec_pp;
        download(oasc, oasc_.get(), n, st);
        download(nsteps, nsteps_.get(), n, st);
        download(err, error_.get(), n, st);
        download(n2, null2_.get(), n * static_cast<size_t>(p.K), st);
        download(rec, steps_.get(), steps, st);
        download(rec_pp, step_pp_.get(), steps, st);
        if (keep_ox_) {
            std::vector<float> c, s;
            download(c, ox_cells_.get(), ox_c, st);
            download(s, ox_specials_.get(), ox_s, st);
            WARPDP_CUDA_CHECK(cudaStreamSynchronize(st));
            for (size_t j = 0; j < n; ++j) {
                out.ox_cells_off.push_back(out.ox_cells_off.back() + (envs[j].L + 1) * row_cells(envs[j]));
                out.ox_specials_off.push_back(out.ox_specials_off.back() + (envs[j].L + 1) * kDomSpecials);
            }
            out.ox_cells.insert(out.ox_cells.end(), c.begin(), c.end());
            out.ox_specials.insert(out.ox_specials.end(), s.begin(), s.end());
        }
        WARPDP_CUDA_CHECK(cudaStreamSynchronize(st));

        // Traces that outgrew their buffers: again, alone, with room for all
        // their steps (the OA matrices are still in place).
        std::vector<size_t> again;
        for (size_t j = 0; j < n; ++j)
            if (err[j] == kOaOk && nsteps[j] > jobs_[j].step_cap) again.push_back(j);
        std::vector<uint32_t> rec2;
        std::vector<float> rec2_pp;
        std::vector<uint64_t> off2(n, 0);
        if (!again.empty()) {
            std::vector<DomOaJob> jobs2;
            uint64_t steps2 = 0;
            for (size_t j : again) {
                DomOaJob job = jobs_[j];
                job.step_off = steps2;
                job.step_cap = nsteps[j];
                off2[j] = steps2;
                steps2 += nsteps[j];
                jobs2.push_back(job);
            }
            upload(jobs2_dev_, jobs2, st);
            steps2_.reserve(steps2);
            step2_pp_.reserve(steps2);
            nsteps2_.reserve(again.size());
            error2_.reserve(again.size());
            DomOaParams p2 = p;
            p2.jobs = jobs2_dev_.get();
            p2.n = static_cast<uint32_t>(again.size());
            p2.steps = steps2_.get();
            p2.step_pp = step2_pp_.get();
            p2.nsteps = nsteps2_.get();
            p2.error = error2_.get();
            WARPDP_CUDA_CHECK_LAUNCH((dom_oa_trace_kernel<<<blocks_for(again.size()), kThreads, 0, st>>>(p2)));
            std::vector<uint64_t> ns2;
            download(ns2, nsteps2_.get(), again.size(), st);
            download(rec2, steps2_.get(), steps2, st);
            download(rec2_pp, step2_pp_.get(), steps2, st);
            WARPDP_CUDA_CHECK(cudaStreamSynchronize(st));
            for (size_t a = 0; a < again.size(); ++a)
                if (ns2[a] != nsteps[again[a]]) throw InternalError("optimal-accuracy traceback: a rerun differs");
        }

        const auto K = static_cast<size_t>(p.K), Kp = static_cast<size_t>(out.Kp);
        for (size_t j = 0; j < n; ++j) {
            const size_t e = base + j;
            out.oasc[e] = oasc[j];
            out.trace_error[e] = err[j];
            std::copy_n(n2.begin() + static_cast<std::ptrdiff_t>(j * K), K, out.null2.begin() + static_cast<std::ptrdiff_t>(e * Kp));
            const bool big = nsteps[j] > jobs_[j].step_cap;
            const uint32_t* r = big ? rec2.data() + off2[j] : rec.data() + jobs_[j].step_off;
            const float* rp = big ? rec2_pp.data() + off2[j] : rec_pp.data() + jobs_[j].step_off;
            const size_t ns = err[j] == kOaOk ? nsteps[j] : 0;
            out.steps.insert(out.steps.end(), r, r + ns);
            out.step_pp.insert(out.step_pp.end(), rp, rp + ns);
            out.step_off.push_back(out.steps.size());
        }
    }

    // The fill of a launch's jobs: all four-thread, or warps for every job
    // whose model fits the warp's shared memory and four threads for the rest.
    void fill(const DomOaParams& p, std::span<const DomOaEnvelope> envs, cudaStream_t st) {
        const size_t n = envs.size();
        if (fill_form_ == DomOaFillForm::lanes4) {
            WARPDP_CUDA_CHECK_LAUNCH((dom_oa_fill_kernel<<<blocks_for(uint64_t{4} * n), kThreads, 0, st>>>(
                p, nullptr, static_cast<uint32_t>(n))));
            return;
        }
        fill_jobs_.clear();
        std::vector<uint32_t> wide;
        int widest = 1;  // Q of the widest model taking warps
        for (size_t j = 0; j < n; ++j) {
            const int Q = models_[envs[j].model].Q;
            if (warp_region_bytes(Q) <= kWarpBlockSmem) {
                fill_jobs_.push_back(static_cast<uint32_t>(j));
                widest = std::max(widest, Q);
            } else {
                wide.push_back(static_cast<uint32_t>(j));
            }
        }
        const auto n_warp = static_cast<uint32_t>(fill_jobs_.size());
        const auto n_wide = static_cast<uint32_t>(wide.size());
        fill_jobs_.insert(fill_jobs_.end(), wide.begin(), wide.end());
        upload(fill_jobs_dev_, fill_jobs_, st);
        if (n_warp > 0) {
            const uint64_t region = warp_region_bytes(widest);
            const uint64_t W = std::min(kWarpsPerBlock, kWarpBlockSmem / region);
            const auto blocks = static_cast<unsigned>((n_warp + W - 1) / W);
            WARPDP_CUDA_CHECK_LAUNCH((dom_oa_fill_warp_kernel<<<blocks, static_cast<unsigned>(32 * W), W * region, st>>>(
                p, fill_jobs_dev_.get(), n_warp, static_cast<uint32_t>(region / sizeof(float)))));
        }
        if (n_wide > 0)
            WARPDP_CUDA_CHECK_LAUNCH((dom_oa_fill_kernel<<<blocks_for(uint64_t{4} * n_wide), kThreads, 0, st>>>(
                p, fill_jobs_dev_.get() + n_warp, n_wide)));
    }

    // dom_null2's last steps for every envelope: degenerate codes the mean of
    // their members' odds, summed in code order; gap, '*' and '~' 1.
    static void finish_null2(const Alphabet& abc, size_t n, DomOaResults& out) {
        const int K = abc.K(), Kp = abc.Kp();
        for (size_t e = 0; e < n; ++e) {
            float* const v = out.null2.data() + e * static_cast<size_t>(Kp);
            for (int x = K + 1; x <= Kp - 3; ++x) {
                float sum = 0.0f;
                int m = 0;
                for (int y = 0; y < K; ++y)
                    if (abc.degenerate_has(x, y)) {
                        sum = dom_lanes::add(sum, v[y]);
                        ++m;
                    }
                v[x] = dom_lanes::div(sum, static_cast<float>(m));
            }
            v[K] = 1.0f;
            v[Kp - 2] = 1.0f;
            v[Kp - 1] = 1.0f;
        }
    }

    int device_;
    uint64_t scratch_bytes_;
    uint32_t trace_steps_;
    bool keep_ox_;
    bool scatter_;
    DomOaFillForm fill_form_;
    std::vector<uint32_t> fill_jobs_;  // the warp fill's jobs, then the four-thread fill's
    DeviceBuffer<uint32_t> fill_jobs_dev_;
    std::unique_ptr<Stream> stream_;
    std::vector<float> host_cells_, host_specials_;
    std::vector<DomOaJob> jobs_;
    std::vector<const FwdProfile*> used_;  // the call's models its envelopes use, else null
    std::vector<float> host_emit_, host_trans_;
    std::vector<DomModelDesc> models_;     // the call's table, as uploaded
    DeviceBuffer<DomModelDesc> models_dev_;
    DeviceBuffer<float> up_cells_, up_specials_, trans_, emit_, ox_cells_, ox_specials_, step_pp_, step2_pp_, oasc_,
        usage_, null2_;
    DeviceBuffer<DomOaJob> jobs_dev_, jobs2_dev_;
    DeviceBuffer<uint32_t> steps_, steps2_;
    DeviceBuffer<uint64_t> nsteps_, nsteps2_;
    DeviceBuffer<uint8_t> error_, error2_;
};

}  // namespace

std::unique_ptr<DomOaEngine> make_dom_oa_cuda_engine_ex(int device, const DomOaTestHooks& hooks) {
    return std::make_unique<CudaDomOaEngine>(device, hooks);
}

std::unique_ptr<DomOaEngine> make_dom_oa_cuda_engine(int device, uint64_t scratch_bytes) {
    DomOaTestHooks h;
    h.oa_scratch_bytes = scratch_bytes;
    return make_dom_oa_cuda_engine_ex(device, h);
}

}  // namespace warpdp
