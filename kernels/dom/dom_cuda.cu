// The CUDA post-filter engine (docs/hmmer-filters.md §16.8): a call's jobs,
// of any of the models set, go to the device in batches that fit its
// memory, four threads a job (kernels/dom/dom_kernels.cuh) or a warp a job
// (kernels/dom/dom_warp_kernel.cuh), costliest jobs first so the groups of a
// warp (the warps of a block) run similar times. The specials of every job come
// back; the scores are finished here with glibc's logarithms, as the CPU
// forms finish them (a GPU log may round differently).
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_memory.hpp"
#include "kernels/dom/dom_cuda.hpp"
#include "kernels/dom/dom_kernels.cuh"
#include "kernels/dom/dom_warp_kernel.cuh"

namespace warpdp {
namespace {

using namespace warpdp::cuda;

class CudaDomEngine final : public DomCudaEngine {
public:
    CudaDomEngine(int device, uint64_t budget_bytes, DomCudaForm form)
        : device_(device), budget_override_(budget_bytes), form_(form) {
        open_devices({device}, "post-filter");
        DeviceGuard guard(device_);
        stream_ = std::make_unique<Stream>();
    }

    int device() const noexcept override { return device_; }
    float* arena() const noexcept override { return arena_.get(); }
    void* stream() const noexcept override { return stream_->get(); }

    void set_models(std::span<const FwdProfile* const> models) override {
        for (const FwdProfile* fp : models)
            if (!fp) throw InternalError("the CUDA post-filter engine given no profile for a model");
        DeviceGuard guard(device_);
        const cudaStream_t st = stream_->get();
        dom_model_tables(models, host_emit_, host_trans_, models_);
        Q_.resize(models_.size());
        for (size_t m = 0; m < models_.size(); ++m) Q_[m] = models_[m].Q;
        emit_.reserve(std::max<size_t>(host_emit_.size(), 1));
        trans_.reserve(std::max<size_t>(host_trans_.size(), 1));
        model_desc_.reserve(std::max<size_t>(models_.size(), 1));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(emit_.get(), host_emit_.data(), host_emit_.size() * sizeof(float),
                                          cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(trans_.get(), host_trans_.data(), host_trans_.size() * sizeof(float),
                                          cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(model_desc_.get(), models_.data(), models_.size() * sizeof(DomModelDesc),
                                          cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaStreamSynchronize(st));  // the host vectors may change
    }

    void run(std::span<const DomCudaJob> jobs, std::span<DomCudaResult> out, const OnBatch& on_batch) override {
        if (out.size() != jobs.size()) throw InternalError("the CUDA post-filter engine given results of another size");
        DeviceGuard guard(device_);
        batch_first_ = batch_count_ = 0;
        jobs_.assign(jobs.size(), Job{});
        uint64_t spec_total = 0;
        for (size_t j = 0; j < jobs.size(); ++j) {
            if (jobs[j].dsq.empty()) throw InternalError("the CUDA post-filter engine given an empty target");
            if (jobs[j].model >= models_.size())
                throw InternalError("a CUDA post-filter job of model " + std::to_string(jobs[j].model) + ", " +
                                    std::to_string(models_.size()) + " set");
            Job& b = jobs_[j];
            b.L = jobs[j].dsq.size();
            b.full = jobs[j].full;
            b.model = jobs[j].model;
            b.host_spec = spec_total;
            spec_total += dom_specials_floats(b.L);
        }
        host_specials_.resize(spec_total);
        host_flags_.assign(jobs.size(), 0);

        const uint64_t held = arena_.size() * sizeof(float) + res_.size() + desc_.size() * sizeof(DomJobDesc) +
                              (order_.size() + flags_.size()) * sizeof(uint32_t);
        const uint64_t free_budget = device_memory().budget(held);
        const uint64_t budget = budget_override_ ? std::min(budget_override_, free_budget) : free_budget;
        for (size_t first = 0; first < jobs.size();) {
            size_t end = first;
            uint64_t bytes = 0;
            while (end < jobs.size()) {
                const uint64_t need = dom_job_bytes(Q_[jobs_[end].model], jobs_[end].L, jobs_[end].full);
                if (bytes + need > budget) break;
                bytes += need;
                ++end;
            }
            if (end == first)
                throw ResourceError("a post-filter job of " + std::to_string(jobs_[first].L) + " residues needs " +
                                    std::to_string(dom_job_bytes(Q_[jobs_[first].model], jobs_[first].L,
                                                                 jobs_[first].full)) +
                                    " bytes of GPU memory, " +
                                    std::to_string(budget) + " available");
            run_batch(jobs, first, end);
            for (size_t j = first; j < end; ++j)
                out[j] = dom_finish(jobs[j].odds, jobs_[j].L, host_specials_.data() + jobs_[j].host_spec, host_flags_[j]);
            batch_first_ = first;
            batch_count_ = end - first;
            if (on_batch) on_batch(first, end - first);
            first = end;
        }
    }

    void specials(size_t j, DomMatrix& fwd, DomMatrix& bck) const override {
        const Job& b = job(j);
        dom_specials_matrices(models_[b.model].M, b.L, host_specials_.data() + b.host_spec, host_flags_[j], fwd, bck);
    }

    DomDeviceMatrix posterior(size_t j) const override {
        DomDeviceMatrix m = forward(j);
        m.offset += m.floats();
        m.cells = arena_.get() + m.offset;
        m.specials = m.cells + (m.L + 1) * m.row_floats();
        return m;
    }

    DomDeviceMatrix forward(size_t j) const override {
        const Job& b = job(j);
        if (!b.full) throw InternalError("a parser job of the CUDA post-filter engine keeps no matrix");
        if (j < batch_first_ || j >= batch_first_ + batch_count_)
            throw InternalError("job " + std::to_string(j) + "'s matrices are no longer on the GPU");
        DomDeviceMatrix m;
        m.offset = b.mat_off;
        m.M = models_[b.model].M;
        m.Q = models_[b.model].Q;
        m.L = b.L;
        m.cells = arena_.get() + m.offset;
        m.specials = m.cells + (m.L + 1) * m.row_floats();
        return m;
    }

    void copy_posterior(size_t j, DomMatrix& pp) const override {
        const DomDeviceMatrix m = posterior(j);
        pp.reshape(m.M, m.L, true);
        std::vector<float> x((m.L + 1) * kDomSpecials);
        download(pp.row(0), m.cells, (m.L + 1) * m.row_floats());
        download(x.data(), m.specials, x.size());
        dom_fill_specials(pp, x.data());
        DomMatrix f, b;
        specials(j, f, b);
        pp.totscale = b.totscale;
        pp.has_own_scales = b.has_own_scales;
    }

    void copy_forward(size_t j, DomMatrix& fwd) const override {
        const DomDeviceMatrix m = forward(j);
        fwd.reshape(m.M, m.L, true);
        download(fwd.row(0), m.cells, (m.L + 1) * m.row_floats());
        const float* fx = host_specials_.data() + jobs_[j].host_spec;
        dom_fill_specials(fwd, fx);
        fwd.totscale = dom_forward_totscale(fx, m.L);
        fwd.has_own_scales = true;
    }

private:
    struct Job {
        uint64_t L = 0;
        bool full = false;
        uint32_t model = 0;
        uint64_t host_spec = 0;  // into host_specials_
        uint64_t mat_off = 0;    // into the arena, while its batch is resident
    };

    const Job& job(size_t j) const {
        if (j >= jobs_.size()) throw InternalError("no such job of the CUDA post-filter engine");
        return jobs_[j];
    }

    void download(float* dst, const float* src, size_t n) const {
        DeviceGuard guard(device_);
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(dst, src, n * sizeof(float), cudaMemcpyDeviceToHost, stream_->get()));
        WARPDP_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
    }

    // Jobs [first, end), laid out by dom_layout_batch.
    void run_batch(std::span<const DomCudaJob> jobs, size_t first, size_t end) {
        const cudaStream_t st = stream_->get();
        const size_t n = end - first;
        dom_layout_batch(jobs.subspan(first, n), Q_, batch_);
        for (size_t k = 0; k < n; ++k) jobs_[first + k].mat_off = batch_.desc[k].mat_off;
        std::vector<DomWarpLaunch> launches{{0, static_cast<uint32_t>(n), 0, 0}};
        if (form_ == DomCudaForm::warp) launches = dom_warp_launches(batch_.order, batch_.desc, Q_);
        arena_.reserve(batch_.arena_floats);
        res_.reserve(batch_.res.size());
        desc_.reserve(n);
        order_.reserve(n);
        flags_.reserve(n);
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(res_.get(), batch_.res.data(), batch_.res.size(), cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(desc_.get(), batch_.desc.data(), n * sizeof(DomJobDesc), cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(order_.get(), batch_.order.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice, st));
        DomParams p{};
        p.emit = emit_.get();
        p.trans = trans_.get();
        p.models = model_desc_.get();
        p.res = res_.get();
        p.jobs = desc_.get();
        p.order = order_.get();
        p.n = static_cast<uint32_t>(n);
        p.arena = arena_.get();
        p.flags = flags_.get();
        for (const DomWarpLaunch& l : launches) {
            DomParams lp = p;
            lp.order = order_.get() + l.first;
            lp.n = l.count;
            if (l.warps == 0) {
                constexpr unsigned kThreads = 128;
                const auto blocks = static_cast<unsigned>((4 * uint64_t{l.count} + kThreads - 1) / kThreads);
                WARPDP_CUDA_CHECK_LAUNCH((dom_kernel<<<blocks, kThreads, 0, st>>>(lp)));
            } else {
                const unsigned blocks = (l.count + l.warps - 1) / l.warps;
                const size_t smem = size_t{l.warps} * l.region * sizeof(float);
                WARPDP_CUDA_CHECK_LAUNCH((dom_warp_kernel<<<blocks, 32 * l.warps, smem, st>>>(lp, l.region)));
            }
        }
        // the batch's specials lead its arena, in job order, as in host_specials_
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(host_specials_.data() + jobs_[first].host_spec, arena_.get(),
                                          batch_.specials_floats * sizeof(float), cudaMemcpyDeviceToHost, st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(host_flags_.data() + first, flags_.get(), n * sizeof(uint32_t),
                                          cudaMemcpyDeviceToHost, st));
        WARPDP_CUDA_CHECK(cudaStreamSynchronize(st));
    }

    int device_;
    uint64_t budget_override_;
    DomCudaForm form_;
    std::unique_ptr<Stream> stream_;
    std::vector<DomModelDesc> models_;  // as set_models() uploaded them
    std::vector<int> Q_;                // models_' Q, for dom_layout_batch
    std::vector<float> host_emit_, host_trans_;
    DeviceBuffer<float> emit_, trans_, arena_;
    DeviceBuffer<DomModelDesc> model_desc_;
    DeviceBuffer<uint8_t> res_;
    DeviceBuffer<DomJobDesc> desc_;
    DeviceBuffer<uint32_t> order_, flags_;
    std::vector<Job> jobs_;
    std::vector<float> host_specials_;
    std::vector<uint32_t> host_flags_;
    DomBatch batch_;
    size_t batch_first_ = 0, batch_count_ = 0;
};

}  // namespace

std::unique_ptr<DomCudaEngine> make_dom_cuda_engine(int device, uint64_t budget_bytes, DomCudaForm form) {
    return std::make_unique<CudaDomEngine>(device, budget_bytes, form);
}

}  // namespace warpdp
