// The CUDA engine of gpu-nw-dist: letter codes resident on every GPU (one
// upload per load()), pairs sorted by (A, length of B) so a warp's threads
// share A and have B reads of almost equal length, then cut into contiguous
// shares of equal cell count, one host thread per GPU. Each share runs in
// launches of a bounded number of pairs (fewer when device memory is short)
// of the kernels in nw_kernels.cuh (NDist: fill, then traceback, per launch).
// Pairs the kernels do not take (empty reads; NDist pairs with la + lb > 5000)
// run on the host meanwhile, with the general forward form. The kernels
// return raw counts and the host turns them into the distance with the CPU
// engine's own code, so results never depend on the GPU count or the launch
// size.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <exception>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "core/base/errors.hpp"
#include "core/base/parallel.hpp"
#include "core/nw/nw_forward.hpp"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_memory.hpp"
#include "kernels/common/per_device.hpp"
#include "kernels/nw/nw_cuda.hpp"
#include "kernels/nw/nw_kernels.cuh"

namespace warpdp {
namespace {

using namespace warpdp::cuda;

using NwKernel = void (*)(NwParams);

struct NwVariant {
    NwMetric metric;
    const char* name;
    int rows;           // A rows per strip, in registers
    NwKernel kernel;    // SeqDist: the kernel; NDist: the fill
    NwKernel traceback; // NDist only
};

// The one table of kernel instances.
const NwVariant kNwVariants[] = {
    {NwMetric::ndist, "ndist_tb_r8", 8, nw_ndist_fill_kernel<8>, nw_ndist_traceback_kernel<8>},
    {NwMetric::ndist, "ndist_tb_r16", 16, nw_ndist_fill_kernel<16>, nw_ndist_traceback_kernel<16>},
    {NwMetric::ndist, "ndist_tb_r32", 32, nw_ndist_fill_kernel<32>, nw_ndist_traceback_kernel<32>},
    {NwMetric::seqdist, "seqdist_r8", 8, nw_seqdist_kernel<8>, nullptr},
    {NwMetric::seqdist, "seqdist_r16", 16, nw_seqdist_kernel<16>, nullptr},
    {NwMetric::seqdist, "seqdist_r24", 24, nw_seqdist_kernel<24>, nullptr},
};
// The defaults are the fastest instances by kernel time on 400-nt reads
// (bench_nw_gpu 2000 400 all 150 variants; the table is in docs/nw-cuda.md).
constexpr int kDefaultRows[2] = {32, 16};  // ndist, seqdist

constexpr size_t kDefaultLaunchPairs = size_t{1} << 20;
constexpr size_t kMaxLaunchBytes = size_t{32} << 30;  // NDist moves: 40 KB per 400 x 400 pair
constexpr size_t kMinLaunchPairs = 32;  // one warp
constexpr size_t kCodeAlign = 16, kCodeTail = 64;

std::string variant_name(const NwVariant& v) { return v.name; }

const NwVariant& pick_variant(NwMetric metric, const std::string& forced) {
    for (const auto& v : kNwVariants) {
        if (v.metric != metric) continue;
        if (forced.empty() ? v.rows == kDefaultRows[metric == NwMetric::ndist ? 0 : 1] : variant_name(v) == forced)
            return v;
    }
    throw UsageError("no " + std::string(nw_metric_name(metric)) + " CUDA kernel named \"" + forced + "\"");
}

// Everything one launch needs. Each GPU has two, so that the host lists
// launch k+1 and turns launch k-1 into distances while launch k runs.
struct LaunchBuffers {
    std::unique_ptr<Event> ev_start, ev_end, ev_done;
    DeviceBuffer<uint2> pairs;
    DeviceBuffer<uint64_t> warp_base;
    DeviceBuffer<NdWarp> nd_warps;
    DeviceBuffer<uint32_t> nd_scratch, nd_moves, nd_out;
    DeviceBuffer<double> sd_f, sd_f_out;
    DeviceBuffer<int32_t> sd_len, sd_len_out;
    PinnedBuffer<uint2> h_pairs;
    PinnedBuffer<uint64_t> h_base;
    PinnedBuffer<NdWarp> h_warps;
    PinnedBuffer<uint32_t> h_nd;
    PinnedBuffer<double> h_f;
    PinnedBuffer<int32_t> h_len;
    size_t pos = 0, n = 0;  // the launch held: order[pos, pos + n)
    bool busy = false;
};

struct Slot {
    int device = 0;
    std::unique_ptr<Stream> stream;
    DeviceBuffer<uint8_t> codes;
    DeviceBuffer<uint64_t> off;
    DeviceBuffer<uint32_t> len;
    LaunchBuffers buf[2];
    // Per compute() call.
    double kernel_ms = 0, device_ms = 0;
    uint64_t launches = 0;
};

class CudaNwEngine final : public NwCudaEngine {
public:
    explicit CudaNwEngine(const std::vector<int>& devices) {
        static_cast<void>(open_devices(devices, "gpu-nw-dist"));
        for (int d : devices) {
            DeviceGuard guard(d);
            auto s = std::make_unique<Slot>();
            s->device = d;
            s->stream = std::make_unique<Stream>();
            for (auto& b : s->buf) {
                b.ev_start = std::make_unique<Event>();
                b.ev_end = std::make_unique<Event>();
                b.ev_done = std::make_unique<Event>();
            }
            slots_.push_back(std::move(s));
        }
    }

    std::string name() const override { return "cuda-x" + std::to_string(slots_.size()); }
    NwCudaStats last_stats() const override { return stats_; }
    void force_variant(const std::string& name) override { forced_ = name; }
    void set_launch_pairs(size_t n) override { launch_pairs_ = n; }

    void load(const NwReads& reads, const NwCodedReads& coded) override {
        if (coded.size() != reads.size()) throw InternalError("load(): coded reads do not match the reads");
        if (coded.size() >= (size_t{1} << 32)) throw UsageError("gpu-nw-dist: more than 2^32 reads");
        reads_ = &reads;
        coded_ = &coded;
        const size_t n = coded.size();
        std::vector<uint64_t> off(n);
        std::vector<uint32_t> len(n);
        size_t total = 0, longest = 0;
        for (size_t i = 0; i < n; ++i) {
            off[i] = total;
            len[i] = coded.length(i);
            longest = std::max<size_t>(longest, len[i]);
            total += (size_t{len[i]} + kCodeAlign - 1) / kCodeAlign * kCodeAlign;
        }
        // The NDist fill reads both halves' A and B up to the larger lengths.
        std::vector<uint8_t> codes(total + longest + kCodeTail, 0);
        for (size_t i = 0; i < n; ++i)
            if (len[i] > 0) std::memcpy(codes.data() + off[i], coded.data(i), len[i]);
        for (auto& s : slots_) {
            DeviceGuard guard(s->device);
            s->codes.reset(0);
            s->codes.reset(codes.size());
            s->off.reset(std::max<size_t>(n, 1));
            s->len.reset(std::max<size_t>(n, 1));
            WARPDP_CUDA_CHECK(cudaMemcpy(s->codes.get(), codes.data(), codes.size(), cudaMemcpyHostToDevice));
            if (n > 0) {
                WARPDP_CUDA_CHECK(cudaMemcpy(s->off.get(), off.data(), n * sizeof(uint64_t), cudaMemcpyHostToDevice));
                WARPDP_CUDA_CHECK(cudaMemcpy(s->len.get(), len.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
            }
        }
    }

    void compute(std::span<const NwPair> pairs, std::span<double> out) override;

private:
    bool gpu_eligible(const NwPair& p) const {
        const uint32_t la = coded_->length(p.a), lb = coded_->length(p.b);
        if (la == 0 || lb == 0) return false;
        if (coded_->metric == NwMetric::seqdist) return true;
        return uint64_t{la} + lb <= nw_dev::kNdistMaxLengths;
    }
    std::vector<uint32_t> sorted_gpu_pairs(std::span<const NwPair> pairs, std::vector<uint32_t>& host) const;
    void run_slot(Slot& s, const NwVariant& v, std::span<const NwPair> pairs, std::span<const uint32_t> order,
                  std::span<double> out);

    std::vector<std::unique_ptr<Slot>> slots_;
    const NwReads* reads_ = nullptr;
    const NwCodedReads* coded_ = nullptr;
    NwCudaStats stats_;
    std::string forced_;
    size_t launch_pairs_ = 0;
};

// The pairs the kernels take, ordered by (A, length of B, position): two
// stable counting sorts (by length, then by A), linear in the pair count.
// The others go to `host`.
std::vector<uint32_t> CudaNwEngine::sorted_gpu_pairs(std::span<const NwPair> pairs, std::vector<uint32_t>& host) const {
    std::vector<uint32_t> gpu;
    gpu.reserve(pairs.size());
    uint32_t max_lb = 0;
    bool sorted = true;  // gpu-nw-dist hands pairs over in this order already
    for (uint32_t k = 0; k < pairs.size(); ++k) {
        if (gpu_eligible(pairs[k])) {
            if (!gpu.empty()) {
                const NwPair& q = pairs[gpu.back()];
                sorted = sorted && (q.a < pairs[k].a ||
                                    (q.a == pairs[k].a && coded_->length(q.b) <= coded_->length(pairs[k].b)));
            }
            gpu.push_back(k);
            max_lb = std::max(max_lb, coded_->length(pairs[k].b));
        } else {
            host.push_back(k);
        }
    }
    if (sorted) return gpu;
    auto counting_sort = [&](const std::vector<uint32_t>& in, size_t range, auto&& key) {
        std::vector<uint64_t> start(range + 1, 0);
        for (uint32_t k : in) ++start[key(k) + 1];
        for (size_t v = 0; v < range; ++v) start[v + 1] += start[v];
        std::vector<uint32_t> res(in.size());
        for (uint32_t k : in) res[start[key(k)]++] = k;
        return res;
    };
    gpu = counting_sort(gpu, size_t{max_lb} + 1, [&](uint32_t k) { return size_t{coded_->length(pairs[k].b)}; });
    return counting_sort(gpu, coded_->size(), [&](uint32_t k) { return size_t{pairs[k].a}; });
}

void CudaNwEngine::compute(std::span<const NwPair> pairs, std::span<double> out) {
    if (out.size() != pairs.size())
        throw InternalError("compute(): " + std::to_string(out.size()) + " outputs for " + std::to_string(pairs.size()) +
                            " pairs");
    if (!coded_) throw InternalError("compute() before load()");
    for (const auto& p : pairs)
        if (p.a >= coded_->size() || p.b >= coded_->size())
            throw InternalError("compute(): pair (" + std::to_string(p.a) + ", " + std::to_string(p.b) +
                                ") names a read that was not loaded");
    const NwVariant& v = pick_variant(coded_->metric, forced_);
    const bool nd = coded_->metric == NwMetric::ndist;

    std::vector<uint32_t> host, gpu = sorted_gpu_pairs(pairs, host);
    // Contiguous shares of (almost) equal cell counts.
    const size_t ns = slots_.size();
    std::vector<uint64_t> prefix(ns > 1 ? gpu.size() + 1 : 0, 0);
    uint64_t gpu_cells = 0;
    for (size_t k = 0; k < gpu.size(); ++k) {
        gpu_cells += nw_cells(coded_->length(pairs[gpu[k]].a), coded_->length(pairs[gpu[k]].b));
        if (ns > 1) prefix[k + 1] = gpu_cells;
    }
    std::vector<size_t> cut(ns + 1, gpu.size());
    cut[0] = 0;
    for (size_t d = 1; d < ns; ++d) {
        const uint64_t want = gpu_cells / ns * d + gpu_cells % ns * d / ns;
        cut[d] = static_cast<size_t>(std::lower_bound(prefix.begin(), prefix.end(), want) - prefix.begin());
        cut[d] = std::clamp(cut[d], cut[d - 1], gpu.size());
    }

    run_per_device(
        ns,
        [&](size_t d) {
            if (cut[d] != cut[d + 1])
                run_slot(*slots_[d], v, pairs, std::span<const uint32_t>(gpu).subspan(cut[d], cut[d + 1] - cut[d]), out);
        },
        [&] {  // the host's share, while the GPUs work
            const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
            std::vector<NwScratch> scratch(parallel_workers(host.size(), threads, 16));
            parallel_for_workers(host.size(), threads, 16, [&](unsigned w, size_t i) {
                const uint32_t k = host[i];
                const auto a = reads_->read(pairs[k].a), b = reads_->read(pairs[k].b);
                const double d = nd ? ndist_forward(a, b, scratch[w]) : seqdist_forward(a, b, coded_->table, scratch[w]);
                out[k] = std::isnan(d) ? nw_canonical_nan() : d;
            });
        });

    stats_ = NwCudaStats{};
    stats_.variant = variant_name(v);
    stats_.gpu_pairs = gpu.size();
    stats_.gpu_cells = gpu_cells;
    stats_.host_pairs = host.size();
    for (size_t d = 0; d < ns; ++d) {
        if (cut[d] == cut[d + 1]) continue;
        stats_.kernel_ms = std::max(stats_.kernel_ms, slots_[d]->kernel_ms);
        stats_.device_ms = std::max(stats_.device_ms, slots_[d]->device_ms);
        stats_.launches += slots_[d]->launches;
    }
}

void CudaNwEngine::run_slot(Slot& s, const NwVariant& v, std::span<const NwPair> pairs, std::span<const uint32_t> order,
                            std::span<double> out) {
    const auto t0 = std::chrono::steady_clock::now();
    DeviceGuard guard(s.device);
    cudaStream_t st = s.stream->get();
    const bool nd = v.metric == NwMetric::ndist;
    // Pairs per scratch warp: NDist fill threads take two pairs each.
    const size_t warp_pairs = nd ? 64 : 32;
    const uint64_t move_words = static_cast<uint64_t>(v.rows / 8) * 32;  // per strip and column of a warp
    size_t cap = launch_pairs_ ? std::max(launch_pairs_, size_t{1}) : kDefaultLaunchPairs;
    // The two launches in flight share the device's budget.
    const DeviceMemory mem = device_memory();
    const size_t budget = std::min<uint64_t>(mem.budget() / 2, kMaxLaunchBytes);
    s.kernel_ms = 0;
    s.launches = 0;
    std::vector<uint64_t> base;
    std::vector<NdWarp> warps_nd;

    // Waits for the launch held by b and writes its distances.
    auto finish = [&](LaunchBuffers& b) {
        WARPDP_CUDA_CHECK(cudaEventSynchronize(b.ev_done->get()));
        float ms = 0;
        WARPDP_CUDA_CHECK(cudaEventElapsedTime(&ms, b.ev_start->get(), b.ev_end->get()));
        s.kernel_ms += ms;
        ++s.launches;
        for (size_t q = 0; q < b.n; ++q) {
            const uint32_t k = order[b.pos + q];
            const uint32_t la = coded_->length(pairs[k].a), lb = coded_->length(pairs[k].b);
            double d;
            if (nd) {
                // differences << 16 | columns with the trailing run already removed: as after a final DIAG.
                d = ndist_from_counts(static_cast<int32_t>(b.h_nd.get()[q]), nw_key::diag, la, lb);
            } else {
                d = b.h_f.get()[q] / static_cast<double>(b.h_len.get()[q]);
            }
            out[k] = std::isnan(d) ? nw_canonical_nan() : d;
        }
        b.busy = false;
    };

    size_t launch = 0;
    for (size_t pos = 0; pos < order.size(); ++launch) {
        LaunchBuffers& b = s.buf[launch % 2];  // its previous launch was finished one round ago
        size_t n = std::min(cap, order.size() - pos);
        uint64_t elems = 0, mwords = 0;
        size_t warps = 0;
        for (;;) {
            // Scratch of warp w: 32 lanes x its longest B; NDist moves: strips x longest B x 32 lanes x R / 8 words.
            warps = (n + warp_pairs - 1) / warp_pairs;
            base.assign(nd ? 0 : warps, 0);
            warps_nd.assign(nd ? warps : 0, NdWarp{});
            elems = 0;
            mwords = 0;
            for (size_t w = 0; w < warps; ++w) {
                uint32_t mb = 0, ma = 0;
                for (size_t q = w * warp_pairs; q < std::min(n, (w + 1) * warp_pairs); ++q) {
                    mb = std::max(mb, coded_->length(pairs[order[pos + q]].b));
                    ma = std::max(ma, coded_->length(pairs[order[pos + q]].a));
                }
                if (nd) {
                    const uint64_t strips = (ma + v.rows - 1) / v.rows;
                    warps_nd[w] = NdWarp{mwords, elems, mb, 0};
                    mwords += strips * mb * move_words;
                } else {
                    base[w] = elems;
                }
                elems += uint64_t{32} * mb;
            }
            const size_t bytes = nd ? (elems + mwords) * sizeof(uint32_t) + n * (sizeof(uint2) + 8) + warps * sizeof(NdWarp)
                                    : elems * (sizeof(double) + sizeof(int32_t)) + n * (sizeof(uint2) + 16) +
                                          warps * sizeof(uint64_t);
            bool fits = bytes <= budget;
            if (fits) {
                try {
                    b.pairs.reserve(n);
                    b.h_pairs.reserve(n);
                    if (nd) {
                        b.nd_warps.reserve(warps);
                        b.h_warps.reserve(warps);
                        b.nd_scratch.reserve(std::max<uint64_t>(elems, 1));
                        b.nd_moves.reserve(std::max<uint64_t>(mwords, 1));
                        b.nd_out.reserve(n);
                        b.h_nd.reserve(n);
                    } else {
                        b.warp_base.reserve(warps);
                        b.h_base.reserve(warps);
                        b.sd_f.reserve(std::max<uint64_t>(elems, 1));
                        b.sd_len.reserve(std::max<uint64_t>(elems, 1));
                        b.sd_f_out.reserve(n);
                        b.sd_len_out.reserve(n);
                        b.h_f.reserve(n);
                        b.h_len.reserve(n);
                    }
                } catch (const ResourceError&) {
                    static_cast<void>(cudaGetLastError());  // clear the failed allocation
                    fits = false;
                }
            }
            if (fits) break;
            if (n <= kMinLaunchPairs)
                throw ResourceError("gpu-nw-dist: GPU " + std::to_string(s.device) + " cannot hold the scratch of even " +
                                    std::to_string(n) + " pairs (" + std::to_string(bytes) + " bytes; " +
                                    std::to_string(mem.free) + " bytes were free)");
            // Release what grew so the smaller launch can allocate afresh.
            b.nd_scratch.reset(0), b.nd_moves.reset(0), b.sd_f.reset(0), b.sd_len.reset(0);
            n = std::max(kMinLaunchPairs, n / 2);
            cap = n;
        }
        uint2* hp = b.h_pairs.get();
        for (size_t q = 0; q < n; ++q) hp[q] = make_uint2(pairs[order[pos + q]].a, pairs[order[pos + q]].b);
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(b.pairs.get(), hp, n * sizeof(uint2), cudaMemcpyHostToDevice, st));
        if (nd) {
            std::copy(warps_nd.begin(), warps_nd.end(), b.h_warps.get());
            WARPDP_CUDA_CHECK(cudaMemcpyAsync(b.nd_warps.get(), b.h_warps.get(), warps * sizeof(NdWarp),
                                              cudaMemcpyHostToDevice, st));
        } else {
            std::copy(base.begin(), base.end(), b.h_base.get());
            WARPDP_CUDA_CHECK(cudaMemcpyAsync(b.warp_base.get(), b.h_base.get(), warps * sizeof(uint64_t),
                                              cudaMemcpyHostToDevice, st));
        }
        NwParams p;
        p.rd = NwDeviceReads{s.codes.get(), s.off.get(), s.len.get()};
        p.pairs = b.pairs.get();
        p.n = static_cast<uint32_t>(n);
        p.nd_warps = b.nd_warps.get();
        p.nd_scratch = b.nd_scratch.get();
        p.nd_moves = b.nd_moves.get();
        p.nd_out = b.nd_out.get();
        p.warp_base = b.warp_base.get();
        p.sd_f = b.sd_f.get();
        p.sd_len = b.sd_len.get();
        p.sd_f_out = b.sd_f_out.get();
        p.sd_len_out = b.sd_len_out.get();
        for (int k = 0; k < 16; ++k) p.table[k] = coded_->table.cost[static_cast<size_t>(k)];
        const size_t threads = nd ? (n + 1) / 2 : n;
        const unsigned grid = static_cast<unsigned>((threads + kNwBlock - 1) / kNwBlock);
        WARPDP_CUDA_CHECK(cudaEventRecord(b.ev_start->get(), st));
        WARPDP_CUDA_CHECK_LAUNCH((v.kernel<<<grid, kNwBlock, 0, st>>>(p)));
        if (nd) {
            const unsigned tb_grid = static_cast<unsigned>((n + kNwBlock - 1) / kNwBlock);
            WARPDP_CUDA_CHECK_LAUNCH((v.traceback<<<tb_grid, kNwBlock, 0, st>>>(p)));
        }
        WARPDP_CUDA_CHECK(cudaEventRecord(b.ev_end->get(), st));
        if (nd) {
            WARPDP_CUDA_CHECK(cudaMemcpyAsync(b.h_nd.get(), b.nd_out.get(), n * sizeof(uint32_t), cudaMemcpyDeviceToHost, st));
        } else {
            WARPDP_CUDA_CHECK(cudaMemcpyAsync(b.h_f.get(), b.sd_f_out.get(), n * sizeof(double), cudaMemcpyDeviceToHost, st));
            WARPDP_CUDA_CHECK(
                cudaMemcpyAsync(b.h_len.get(), b.sd_len_out.get(), n * sizeof(int32_t), cudaMemcpyDeviceToHost, st));
        }
        WARPDP_CUDA_CHECK(cudaEventRecord(b.ev_done->get(), st));
        b.pos = pos, b.n = n, b.busy = true;
        // The previous launch ran while this one was being prepared; collect it now.
        if (LaunchBuffers& prev = s.buf[(launch + 1) % 2]; prev.busy) finish(prev);
        pos += n;
    }
    for (auto& b : s.buf)
        if (b.busy) finish(b);
    s.device_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::unique_ptr<NwCudaEngine> make_nw_cuda_engine_ex(const std::vector<int>& devices) {
    return std::make_unique<CudaNwEngine>(devices);
}

std::unique_ptr<NwEngine> make_nw_cuda_engine(const std::vector<int>& devices) { return make_nw_cuda_engine_ex(devices); }

std::vector<std::string> nw_cuda_variants() {
    std::vector<std::string> names;
    for (const auto& v : kNwVariants) names.push_back(variant_name(v));
    return names;
}

}  // namespace warpdp
