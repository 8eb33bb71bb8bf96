// The CUDA post-filter engine (docs/hmmer-filters.md §16.8): a call's jobs
// go to the device in batches that fit its memory, one launch a batch, four
// threads a job (kernels/dom/dom_kernels.cuh), longest jobs first so the
// groups of a warp run similar row counts. The specials of every job come
// back; the scores are finished here with glibc's logarithms, as the CPU
// forms finish them (a GPU log may round differently).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_memory.hpp"
#include "kernels/dom/dom_cuda.hpp"
#include "kernels/dom/dom_kernels.cuh"

namespace warpdp {
namespace {

using namespace warpdp::cuda;

constexpr uint64_t kSpecialRow = kDomSpecials;

// dom_fwdback.cpp's range error on a final odds value.
bool range_error(float v, uint64_t L) {
    return std::isnan(v) || (L > 0 && v == 0.0f) || v == std::numeric_limits<float>::infinity();
}

// The totscale of the CPU forms, from a matrix's scale column (rows in the
// order each pass rescaled them).
float forward_totscale(const float* x, uint64_t L) {
    float tot = 0.0f;
    for (uint64_t i = 1; i <= L; ++i)
        if (const float s = x[i * kSpecialRow + kDomXScale]; s > 1.0f)
            tot = static_cast<float>(static_cast<double>(tot) + std::log(static_cast<double>(s)));
    return tot;
}
float backward_totscale(const float* x, uint64_t L) {
    float tot = static_cast<float>(std::log(static_cast<double>(x[L * kSpecialRow + kDomXScale])));
    for (uint64_t i = L - 1; i >= 1; --i)
        if (const float s = x[i * kSpecialRow + kDomXScale]; s > 1.0f)
            tot = static_cast<float>(static_cast<double>(tot) + std::log(static_cast<double>(s)));
    return tot;
}

void fill_specials(DomMatrix& mx, const float* x) {
    for (uint64_t i = 0; i <= mx.L(); ++i)
        for (int s = 0; s < kDomSpecials; ++s) mx.x(i, static_cast<DomSpecial>(s)) = x[i * kSpecialRow + static_cast<uint64_t>(s)];
}

class CudaDomEngine final : public DomCudaEngine {
public:
    CudaDomEngine(int device, uint64_t budget_bytes) : device_(device), budget_override_(budget_bytes) {
        open_devices({device}, "post-filter");
        DeviceGuard guard(device_);
        stream_ = std::make_unique<Stream>();
    }

    int device() const noexcept override { return device_; }
    float* arena() const noexcept override { return arena_.get(); }

    void set_model(const FwdProfile& fp) override {
        DeviceGuard guard(device_);
        const cudaStream_t st = stream_->get();
        emit_.reserve(fp.emit.size());
        trans_.reserve(fp.trans.size());
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(emit_.get(), fp.emit.data(), fp.emit.size() * sizeof(float),
                                          cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(trans_.get(), fp.trans.data(), fp.trans.size() * sizeof(float),
                                          cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaStreamSynchronize(st));  // the host profile may go
        M_ = fp.M;
        Q_ = fp.Q;
    }

    void run(std::span<const DomCudaJob> jobs, std::span<DomCudaResult> out, const OnBatch& on_batch) override {
        if (Q_ == 0) throw InternalError("the CUDA post-filter engine ran before set_model");
        if (out.size() != jobs.size()) throw InternalError("the CUDA post-filter engine given results of another size");
        DeviceGuard guard(device_);
        batch_first_ = batch_count_ = 0;
        jobs_.assign(jobs.size(), Job{});
        uint64_t spec_total = 0;
        for (size_t j = 0; j < jobs.size(); ++j) {
            if (jobs[j].dsq.empty()) throw InternalError("the CUDA post-filter engine given an empty target");
            Job& b = jobs_[j];
            b.L = jobs[j].dsq.size();
            b.full = jobs[j].full;
            b.host_spec = spec_total;
            spec_total += 2 * (b.L + 1) * kSpecialRow;
        }
        host_specials_.resize(spec_total);
        host_flags_.assign(jobs.size(), 0);

        const uint64_t held = arena_.size() * sizeof(float) + res_.size() + desc_.size() * sizeof(DomJobDesc);
        const uint64_t budget = budget_override_ ? budget_override_ : device_memory().budget(held);
        for (size_t first = 0; first < jobs.size();) {
            size_t end = first;
            uint64_t bytes = 0;
            while (end < jobs.size()) {
                const uint64_t need = job_bytes(jobs_[end]);
                if (bytes + need > budget) break;
                bytes += need;
                ++end;
            }
            if (end == first)
                throw ResourceError("a post-filter job of " + std::to_string(jobs_[first].L) + " residues needs " +
                                    std::to_string(job_bytes(jobs_[first])) + " bytes of GPU memory, " +
                                    std::to_string(budget) + " available");
            run_batch(jobs, first, end);
            for (size_t j = first; j < end; ++j) out[j] = result(jobs[j], j);
            batch_first_ = first;
            batch_count_ = end - first;
            if (on_batch) on_batch(first, end - first);
            first = end;
        }
    }

    void specials(size_t j, DomMatrix& fwd, DomMatrix& bck) const override {
        const Job& b = job(j);
        const float* fx = host_specials_.data() + b.host_spec;
        const float* bx = fx + (b.L + 1) * kSpecialRow;
        fwd.reshape(M_, b.L, false);
        fill_specials(fwd, fx);
        fwd.totscale = forward_totscale(fx, b.L);
        fwd.has_own_scales = true;
        bck.reshape(M_, b.L, false);
        fill_specials(bck, bx);
        bck.totscale = backward_totscale(bx, b.L);
        bck.has_own_scales = (host_flags_[j] & kDomFlagOwnScales) != 0;
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
        m.M = M_;
        m.Q = Q_;
        m.L = b.L;
        m.cells = arena_.get() + m.offset;
        m.specials = m.cells + (m.L + 1) * m.row_floats();
        return m;
    }

    void copy_posterior(size_t j, DomMatrix& pp) const override {
        const DomDeviceMatrix m = posterior(j);
        pp.reshape(M_, m.L, true);
        std::vector<float> x((m.L + 1) * kSpecialRow);
        download(pp.row(0), m.cells, (m.L + 1) * m.row_floats());
        download(x.data(), m.specials, x.size());
        fill_specials(pp, x.data());
        DomMatrix f, b;
        specials(j, f, b);
        pp.totscale = b.totscale;
        pp.has_own_scales = b.has_own_scales;
    }

    void copy_forward(size_t j, DomMatrix& fwd) const override {
        const DomDeviceMatrix m = forward(j);
        fwd.reshape(M_, m.L, true);
        download(fwd.row(0), m.cells, (m.L + 1) * m.row_floats());
        const float* fx = host_specials_.data() + jobs_[j].host_spec;
        fill_specials(fwd, fx);
        fwd.totscale = forward_totscale(fx, m.L);
        fwd.has_own_scales = true;
    }

private:
    struct Job {
        uint64_t L = 0;
        bool full = false;
        uint64_t host_spec = 0;  // into host_specials_
        uint64_t mat_off = 0;    // into the arena, while its batch is resident
    };

    const Job& job(size_t j) const {
        if (j >= jobs_.size()) throw InternalError("no such job of the CUDA post-filter engine");
        return jobs_[j];
    }

    uint64_t row_floats() const { return static_cast<uint64_t>(Q_) * kDomCells * kFwdLanes; }
    uint64_t matrix_floats(const Job& b) const {
        return b.full ? 2 * (b.L + 1) * (row_floats() + kSpecialRow) : 2 * row_floats();
    }
    uint64_t job_bytes(const Job& b) const {
        return (2 * (b.L + 1) * kSpecialRow + matrix_floats(b)) * sizeof(float) + b.L + sizeof(DomJobDesc) +
               2 * sizeof(uint32_t);
    }

    void download(float* dst, const float* src, size_t n) const {
        DeviceGuard guard(device_);
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(dst, src, n * sizeof(float), cudaMemcpyDeviceToHost, stream_->get()));
        WARPDP_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
    }

    // Jobs [first, end): specials of all of them first (one copy back),
    // then their matrices.
    void run_batch(std::span<const DomCudaJob> jobs, size_t first, size_t end) {
        const cudaStream_t st = stream_->get();
        const size_t n = end - first;
        host_desc_.resize(n);
        host_res_.clear();
        uint64_t spec = 0;
        for (size_t j = first; j < end; ++j) spec += 2 * (jobs_[j].L + 1) * kSpecialRow;
        uint64_t mat = spec;
        for (size_t k = 0; k < n; ++k) {
            Job& b = jobs_[first + k];
            const DomCudaJob& in = jobs[first + k];
            DomJobDesc& d = host_desc_[k];
            d = DomJobDesc{};
            d.res_off = host_res_.size();
            host_res_.insert(host_res_.end(), in.dsq.begin(), in.dsq.end());
            d.L = b.L;
            d.spec_off = b.host_spec - jobs_[first].host_spec;
            b.mat_off = d.mat_off = mat;
            mat += matrix_floats(b);
            d.n_loop = in.odds.n_loop;
            d.n_move = in.odds.n_move;
            d.e_loop = in.odds.e_loop;
            d.e_move = in.odds.e_move;
            d.c_loop = in.odds.c_loop;
            d.c_move = in.odds.c_move;
            d.j_loop = in.odds.j_loop;
            d.j_move = in.odds.j_move;
            d.full = b.full ? 1 : 0;
        }
        host_order_.resize(n);
        std::iota(host_order_.begin(), host_order_.end(), 0u);
        std::stable_sort(host_order_.begin(), host_order_.end(),
                         [&](uint32_t a, uint32_t b) { return host_desc_[a].L > host_desc_[b].L; });

        arena_.reserve(mat);
        res_.reserve(host_res_.size());
        desc_.reserve(n);
        order_.reserve(n);
        flags_.reserve(n);
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(res_.get(), host_res_.data(), host_res_.size(), cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(desc_.get(), host_desc_.data(), n * sizeof(DomJobDesc), cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(order_.get(), host_order_.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice, st));
        DomParams p{};
        p.emit = emit_.get();
        p.trans = trans_.get();
        p.M = M_;
        p.Q = Q_;
        p.res = res_.get();
        p.jobs = desc_.get();
        p.order = order_.get();
        p.n = static_cast<uint32_t>(n);
        p.arena = arena_.get();
        p.flags = flags_.get();
        constexpr unsigned kThreads = 128;
        const auto blocks = static_cast<unsigned>((4 * n + kThreads - 1) / kThreads);
        WARPDP_CUDA_CHECK_LAUNCH((dom_kernel<<<blocks, kThreads, 0, st>>>(p)));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(host_specials_.data() + jobs_[first].host_spec, arena_.get(),
                                          spec * sizeof(float), cudaMemcpyDeviceToHost, st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(host_flags_.data() + first, flags_.get(), n * sizeof(uint32_t),
                                          cudaMemcpyDeviceToHost, st));
        WARPDP_CUDA_CHECK(cudaStreamSynchronize(st));
    }

    // The scores as dom_forward_cpu and dom_backward_cpu finish them.
    DomCudaResult result(const DomCudaJob& in, size_t j) const {
        const Job& b = jobs_[j];
        const uint64_t L = b.L;
        const float* fx = host_specials_.data() + b.host_spec;
        const float* bx = fx + (L + 1) * kSpecialRow;
        DomCudaResult r;
        const float xC = fx[L * kSpecialRow + kDomXC];
        r.fwd_score = range_error(xC, L)
                          ? std::numeric_limits<float>::quiet_NaN()
                          : static_cast<float>(static_cast<double>(forward_totscale(fx, L)) +
                                               std::log(static_cast<double>(flush_denormal(xC * in.odds.c_move))));
        const float xN = bx[kDomXN];
        r.bck_score = range_error(xN, L) ? std::numeric_limits<float>::quiet_NaN()
                                         : static_cast<float>(static_cast<double>(backward_totscale(bx, L)) +
                                                              std::log(static_cast<double>(xN)));
        r.decoding = (host_flags_[j] & kDomFlagOverflow) ? DomDecodeStatus::overflow : DomDecodeStatus::ok;
        return r;
    }

    int device_;
    uint64_t budget_override_;
    std::unique_ptr<Stream> stream_;
    int M_ = 0, Q_ = 0;
    DeviceBuffer<float> emit_, trans_, arena_;
    DeviceBuffer<uint8_t> res_;
    DeviceBuffer<DomJobDesc> desc_;
    DeviceBuffer<uint32_t> order_, flags_;
    std::vector<Job> jobs_;
    std::vector<float> host_specials_;
    std::vector<uint32_t> host_flags_;
    std::vector<DomJobDesc> host_desc_;
    std::vector<uint8_t> host_res_;
    std::vector<uint32_t> host_order_;
    size_t batch_first_ = 0, batch_count_ = 0;
};

}  // namespace

std::unique_ptr<DomCudaEngine> make_dom_cuda_engine(int device, uint64_t budget_bytes) {
    return std::make_unique<CudaDomEngine>(device, budget_bytes);
}

}  // namespace warpdp
