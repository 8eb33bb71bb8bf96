// The CUDA Forward-filter engine. The Forward stage sees only the Viterbi
// survivors of a chunk (a few hundred targets per model), and a target's
// time is serial in its rows, so a call takes as long as its longest
// target's rows (a warp per target shortens them: kernels/fwd/fwd_warp_kernel.cuh)
// and the GPU is busy only when many targets run at once: all jobs of a call
// (one per model) go side by side, each on its own stream, each job's targets split over the
// devices by residues, longest first (the four-thread groups of a warp then
// run similar row counts). The kernel leaves xC and the rescaling factors;
// each score is finished on the host with glibc's logarithms, like
// hmmsearch's (a GPU log may round differently).
#include <cuda_runtime.h>

#include <algorithm>
#include <numeric>
#include <span>
#include <vector>

#include "core/base/errors.hpp"
#include "kernels/common/cuda_check.cuh"
#include "kernels/fwd/fwd_cuda.hpp"
#include "kernels/fwd/fwd_kernels.cuh"
#include "kernels/fwd/fwd_warp_kernel.cuh"

namespace warpdp {
namespace {

using namespace warpdp::cuda;

constexpr uint64_t kScratchBytes = uint64_t{512} << 20;  // global-row scratch per launch (default)
// fwd_warp_kernel's shared memory: the model's transitions and each target's
// rows; models too wide for one target a block take fwd_kernel.
constexpr uint64_t kMaxBlockSmem = 200 << 10;
constexpr int kMaxWarpsPerBlock = 4;

// The warp kernel's layout for a model of Q stripe positions (W = 0: does not fit).
FwdWarpShape warp_shape(int Q) {
    FwdWarpShape w{};
    w.P = (Q + 7) / 8;
    w.Pp = w.P + ((9 - w.P % 8) % 8);  // P' = 1 (mod 8)
    const uint64_t unit = uint64_t{128} * static_cast<uint64_t>(w.Pp);  // one row array of all lanes, bytes
    w.W = static_cast<int>(std::min<uint64_t>(kMaxWarpsPerBlock, kMaxBlockSmem / unit < 8 ? 0 : (kMaxBlockSmem / unit - 8) / 3));
    w.smem_bytes = unit * (8 + 3 * static_cast<uint64_t>(w.W));
    return w;
}

class CudaFwdEngine final : public FwdEngine {
public:
    CudaFwdEngine(const std::vector<int>& devices, uint64_t scratch_bytes, bool global_rows)
        : scratch_bytes_(scratch_bytes), global_rows_(global_rows) {
        open_devices(devices, "Forward");
        for (int d : devices) {
            DeviceGuard guard(d);
            WARPDP_CUDA_CHECK(cudaFuncSetAttribute(fwd_warp_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                   static_cast<int>(kMaxBlockSmem)));
            auto s = std::make_unique<Slot>();
            s->device = d;
            slots_.push_back(std::move(s));
        }
    }

    std::string name() const override { return "cuda-fwd4"; }

    void score_many(std::span<const FwdJob> jobs) override {
        for (auto& s : slots_)
            while (s->work.size() < jobs.size()) s->work.push_back(std::make_unique<Work>());
        for (size_t i = 0; i < jobs.size(); ++i) {
            const SeqBatch& targets = *jobs[i].targets;
            std::vector<uint32_t> order(targets.size());
            std::iota(order.begin(), order.end(), 0u);
            std::stable_sort(order.begin(), order.end(),
                             [&](uint32_t a, uint32_t b) { return targets.length(a) > targets.length(b); });
            // Longest first, each to the device with the fewest residues so far.
            std::vector<uint64_t> load(slots_.size(), 0);
            for (auto& s : slots_) s->work[i]->mine.clear();
            for (uint32_t t : order) {
                const size_t d = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
                slots_[d]->work[i]->mine.push_back(t);
                load[d] += targets.length(t);
            }
        }
        for (auto& s : slots_)
            for (size_t i = 0; i < jobs.size(); ++i)
                if (!s->work[i]->mine.empty()) launch(s->device, *s->work[i], jobs[i]);
        for (auto& s : slots_) {
            DeviceGuard guard(s->device);
            for (size_t i = 0; i < jobs.size(); ++i) {
                Work& w = *s->work[i];
                if (w.mine.empty()) continue;
                // Results come back only now: a copy into pageable memory
                // would hold this thread until its kernel ended, and the
                // next job's launch with it.
                const cudaStream_t st = w.stream->get();
                const size_t n = w.mine.size();
                download(w.host_xc, w.xc, n, st);
                download(w.host_nscales, w.nscales, n, st);
                download(w.host_scales, w.scales, w.host_off.back(), st);
                WARPDP_CUDA_CHECK(cudaStreamSynchronize(st));
                for (size_t j = 0; j < w.mine.size(); ++j) {
                    const uint32_t t = w.mine[j];
                    const std::span<const float> scales(w.host_scales.data() + w.host_off[j], w.host_nscales[j]);
                    jobs[i].out[t] = fwd_finish(scales, w.host_xc[j], jobs[i].targets->length(t));
                }
            }
        }
    }

private:
    // One job's share on one device; kept from call to call (buffers only grow).
    struct Work {
        std::unique_ptr<Stream> stream;
        std::vector<uint32_t> mine;  // targets of this call, longest first
        std::vector<uint8_t> host_res;
        std::vector<uint64_t> host_off;
        std::vector<float> host_trans, host_scales, host_xc;
        std::vector<uint32_t> host_nscales;
        DeviceBuffer<float> emit, trans, dp, scales, xc;
        DeviceBuffer<uint8_t> res;
        DeviceBuffer<uint64_t> off;
        DeviceBuffer<uint32_t> nscales;
    };
    struct Slot {
        int device = 0;
        std::vector<std::unique_ptr<Work>> work;
    };

    template <typename T>
    static void upload(DeviceBuffer<T>& dst, const std::vector<T>& src, cudaStream_t st) {
        dst.reserve(src.size());
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(dst.get(), src.data(), src.size() * sizeof(T), cudaMemcpyHostToDevice, st));
    }
    template <typename T>
    static void download(std::vector<T>& dst, const DeviceBuffer<T>& src, size_t n, cudaStream_t st) {
        dst.resize(n);
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.get(), n * sizeof(T), cudaMemcpyDeviceToHost, st));
    }

    void launch(int device, Work& w, const FwdJob& job) {
        DeviceGuard guard(device);
        if (!w.stream) w.stream = std::make_unique<Stream>();
        const cudaStream_t st = w.stream->get();
        const FwdProfile& prof = *job.profile;
        const size_t n = w.mine.size();
        w.host_res.clear();
        w.host_off.assign(1, 0);
        for (uint32_t t : w.mine) {
            const auto seq = job.targets->seq(t);
            w.host_res.insert(w.host_res.end(), seq.begin(), seq.end());
            w.host_off.push_back(w.host_res.size());
        }
        // Transitions regrouped so each thread reads its position's eight as two float4.
        const int Q = prof.Q;
        w.host_trans.resize(prof.trans.size());
        for (int q = 0; q < Q; ++q)
            for (int z = 0; z < kFwdLanes; ++z)
                for (int s = 0; s < kFwdNumTrans; ++s)
                    w.host_trans[(static_cast<size_t>(q) * kFwdLanes + static_cast<size_t>(z)) * kFwdNumTrans +
                                 static_cast<size_t>(s)] = prof.t(q, static_cast<FwdTrans>(s))[z];
        const uint64_t total = w.host_off.back();
        upload(w.emit, prof.emit, st);
        upload(w.trans, w.host_trans, st);
        upload(w.res, w.host_res, st);
        upload(w.off, w.host_off, st);
        w.scales.reserve(total);
        w.xc.reserve(n);
        w.nscales.reserve(n);
        FwdParams p{};
        p.emit = w.emit.get();
        p.trans = w.trans.get();
        p.M = prof.M;
        p.Q = Q;
        p.res = w.res.get();
        p.scales = w.scales.get();
        const FwdWarpShape shape = warp_shape(Q);
        if (shape.W > 0 && !global_rows_) {
            p.off = w.off.get();
            p.n = static_cast<uint32_t>(n);
            p.nscales = w.nscales.get();
            p.xc = w.xc.get();
            const auto blocks = static_cast<unsigned>((n + static_cast<size_t>(shape.W) - 1) / static_cast<size_t>(shape.W));
            WARPDP_CUDA_CHECK_LAUNCH((fwd_warp_kernel<<<blocks, 32 * shape.W, shape.smem_bytes, st>>>(p, shape.P, shape.Pp, shape.W)));
        } else {
            constexpr unsigned kThreads = 128;
            const uint64_t row_bytes = uint64_t{3} * static_cast<uint64_t>(Q) * sizeof(float) * 4;  // one target's
            const uint64_t batch = std::clamp<uint64_t>(scratch_bytes_ / row_bytes, kThreads / 4, n);
            const uint64_t stride = ((batch * 4 + kThreads - 1) / kThreads) * kThreads;
            w.dp.reserve(uint64_t{3} * static_cast<uint64_t>(Q) * stride);
            p.dp = w.dp.get();
            p.stride = stride;
            for (uint64_t first = 0; first < n; first += batch) {
                const uint64_t nb = std::min<uint64_t>(batch, n - first);
                p.off = w.off.get() + first;
                p.n = static_cast<uint32_t>(nb);
                p.nscales = w.nscales.get() + first;
                p.xc = w.xc.get() + first;
                const auto blocks = static_cast<unsigned>((nb * 4 + kThreads - 1) / kThreads);
                WARPDP_CUDA_CHECK_LAUNCH((fwd_kernel<<<blocks, kThreads, 0, st>>>(p)));
            }
        }
    }

    uint64_t scratch_bytes_;
    bool global_rows_;
    std::vector<std::unique_ptr<Slot>> slots_;
};

}  // namespace

std::unique_ptr<FwdEngine> make_fwd_cuda_engine_ex(const std::vector<int>& devices, uint64_t global_rows_scratch) {
    return global_rows_scratch > 0 ? std::make_unique<CudaFwdEngine>(devices, global_rows_scratch, true)
                                   : std::make_unique<CudaFwdEngine>(devices, kScratchBytes, false);
}

std::unique_ptr<FwdEngine> make_fwd_cuda_engine(const std::vector<int>& devices) {
    return make_fwd_cuda_engine_ex(devices, 0);
}

}  // namespace warpdp
