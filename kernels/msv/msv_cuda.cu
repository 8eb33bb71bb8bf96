// The CUDA MSV engine: keeps a chunk of targets resident on one or more GPUs
// (sorted by length, split by residue count), streams models through the SSV
// kernel (tiled over the model when it exceeds one register tile) and sends
// the targets SSV cannot decide to the full-MSV kernel, still on the GPU.
// Results come back in input order and equal msv_reference bit for bit.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <future>
#include <numeric>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/base/trace.hpp"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_memory.hpp"
#include "kernels/common/resident_targets.hpp"
#include "kernels/msv/msv_cuda.hpp"
#include "kernels/msv/msv_kernels.cuh"

namespace warpdp {
namespace {

using namespace warpdp::cuda;

using SsvKernel = void (*)(SsvParams);
using MsvGroupKernel = void (*)(MsvGroupParams);

struct SsvVariant {
    int G;
    int S;
    bool tiled;
    SsvKernel kernel;
    MsvGroupKernel full;  // the register full-MSV kernel of the same shape (untiled only)
};

// The one table of SSV instances. Non-tiled widths G*S: 32, 64, 96, 128, 160,
// 192, 256, 320, 384, 512, 640, 768, 896, 1024, 1280, 1536, 1792, 2048 nodes
// (padding lanes cost as much as real ones, so the steps are fine); larger
// models use the tiled ones.
const SsvVariant kSsvVariants[] = {
    {4, 8, false, ssv_kernel<4, 8, false>, msv_group_kernel<4, 8>},     {4, 16, false, ssv_kernel<4, 16, false>, msv_group_kernel<4, 16>},
    {4, 24, false, ssv_kernel<4, 24, false>, msv_group_kernel<4, 24>},
    {4, 40, false, ssv_kernel<4, 40, false>, msv_group_kernel<4, 40>},
    {8, 40, false, ssv_kernel<8, 40, false>, msv_group_kernel<8, 40>},
    {16, 40, false, ssv_kernel<16, 40, false>, msv_group_kernel<16, 40>},
    {16, 56, false, ssv_kernel<16, 56, false>, msv_group_kernel<16, 56>},   {8, 16, false, ssv_kernel<8, 16, false>, msv_group_kernel<8, 16>},
    {8, 24, false, ssv_kernel<8, 24, false>, msv_group_kernel<8, 24>},   {16, 16, false, ssv_kernel<16, 16, false>, msv_group_kernel<16, 16>},
    {16, 24, false, ssv_kernel<16, 24, false>, msv_group_kernel<16, 24>}, {32, 16, false, ssv_kernel<32, 16, false>, msv_group_kernel<32, 16>},
    {32, 24, false, ssv_kernel<32, 24, false>, msv_group_kernel<32, 24>}, {32, 32, false, ssv_kernel<32, 32, false>, msv_group_kernel<32, 32>},
    {32, 40, false, ssv_kernel<32, 40, false>, msv_group_kernel<32, 40>}, {32, 48, false, ssv_kernel<32, 48, false>, msv_group_kernel<32, 48>},
    {32, 56, false, ssv_kernel<32, 56, false>, msv_group_kernel<32, 56>}, {32, 64, false, ssv_kernel<32, 64, false>, msv_group_kernel<32, 64>},
    {32, 40, true, ssv_kernel<32, 40, true>, nullptr},   {32, 48, true, ssv_kernel<32, 48, true>, nullptr},
    {32, 56, true, ssv_kernel<32, 56, true>, nullptr},   {32, 64, true, ssv_kernel<32, 64, true>, nullptr},
};
constexpr int kMaxTileNodes = 32 * 64;

struct SsvPlan {
    const SsvVariant* v = nullptr;
    int ntiles = 1;
};

std::string variant_name(const SsvVariant& v) {
    return "ssv_g" + std::to_string(v.G) + "_s" + std::to_string(v.S) + (v.tiled ? "_tiled" : "");
}

// The narrowest non-tiled variant that holds the model; else the tiled one
// whose tiles split the model most evenly.
SsvPlan choose_plan(int M) {
    SsvPlan plan;
    for (const auto& v : kSsvVariants) {
        if (v.tiled || v.G * v.S < M) continue;
        if (!plan.v || v.G * v.S < plan.v->G * plan.v->S) plan.v = &v;
    }
    if (plan.v) return plan;
    const int ntiles = (M + kMaxTileNodes - 1) / kMaxTileNodes;
    const int per_lane = ((M + ntiles - 1) / ntiles + 31) / 32;
    const int S = (per_lane + 7) / 8 * 8;
    for (const auto& v : kSsvVariants)
        if (v.tiled && v.S == S) plan.v = &v;
    if (!plan.v) throw InternalError("no tiled SSV variant with S = " + std::to_string(S));
    plan.ntiles = (M + plan.v->G * plan.v->S - 1) / (plan.v->G * plan.v->S);
    return plan;
}

SsvPlan forced_plan(const std::string& name, int M) {
    for (const auto& v : kSsvVariants) {
        if (variant_name(v) != name) continue;
        const int width = v.G * v.S;
        if (!v.tiled && width < M)
            throw UsageError("SSV variant " + name + " holds " + std::to_string(width) + " nodes < M = " +
                             std::to_string(M));
        return SsvPlan{&v, (M + width - 1) / width};
    }
    throw UsageError("unknown SSV variant " + name);
}

// Weights of one model in the SSV kernels' shared-memory order: per tile, per
// code x, per uint4 q, per lane t: pairs 4q..4q+3, pair p = nodes (p, p + S/2)
// of lane t's stripe, so a lane's loads are consecutive across the group
// (no bank conflicts).
std::vector<uint4> build_ssv_table(const MsvByteProfile& prof, const SsvPlan& plan) {
    const int G = plan.v->G, S = plan.v->S, Q = S / 8, width = G * S;
    std::vector<uint4> tab(static_cast<size_t>(plan.ntiles) * kWCodes * Q * G);
    auto* h = reinterpret_cast<int16_t*>(tab.data());
    size_t i = 0;
    for (int tile = 0; tile < plan.ntiles; ++tile)
        for (int x = 0; x < kWCodes; ++x)
            for (int q = 0; q < Q; ++q)
                for (int t = 0; t < G; ++t)
                    for (int e = 0; e < 8; ++e) {
                        const int pair = 4 * q + e / 2;
                        const int node = t * S + pair + (e % 2 ? S / 2 : 0);
                        const int k = tile * width + node + 1;
                        h[i++] = (x < kMsvCodes && k <= prof.M)
                                     ? static_cast<int16_t>(prof.bias - prof.cost_at(x, k))
                                     : kWPad;
                    }
    return tab;
}

// Models score_each has on the card ahead of the host's decisions: while
// the host decides one model, the card scores the next ones without a gap.
constexpr size_t kQueued = 3;

struct Slot {
    int device = 0;
    int sm_count = 0;
    size_t smem_optin = 0;
    std::vector<uint32_t> input_index;  // sorted position -> input index
    uint64_t residues = 0;
    std::unique_ptr<Stream> stream;
    std::unique_ptr<Event> ev_start, ev_ssv, ev_end;
    StagingBuffer staging;  // packed residues on their way up, reused chunk after chunk
    DeviceBuffer<uint8_t> res;
    DeviceBuffer<uint64_t> off;
    DeviceBuffer<uint32_t> len;
    DeviceBuffer<uint8_t> tjb;
    DeviceBuffer<int32_t> state;
    DeviceBuffer<int16_t> bnd;
    DeviceBuffer<uint16_t> out;
    DeviceBuffer<uint32_t> fb_list;
    DeviceBuffer<uint32_t> counters;  // one work counter per tile, then the fallback count
    DeviceBuffer<uint4> wtab;
    DeviceBuffer<int16_t> cost;
    // Each queued model's results on their way back (score_each keeps
    // kQueued models on the card at once; score() uses the first).
    struct Results {
        PinnedBuffer<uint4> wtab;  // the model's tables on their way up (pinned: the copy is queued, not staged)
        PinnedBuffer<int16_t> cost;
        PinnedBuffer<uint16_t> out;
        PinnedBuffer<uint32_t> fallback_count;
        Event copied{cudaEventBlockingSync | cudaEventDisableTiming};
    };
    std::array<Results, kQueued> results;

    size_t n() const noexcept { return input_index.size(); }
    TargetsView view() const noexcept {
        return TargetsView{res.get(), off.get(), len.get(), tjb.get(), static_cast<uint32_t>(n())};
    }
};

constexpr size_t kAlign = 16;
constexpr size_t kTailPad = 512;  // residue loads may run this far past the last target
constexpr size_t kPerTargetBytes = 8 + 4 + 1 + 4 + 2 + 4;


class CudaMsvEngine final : public MsvCudaEngine {
public:
    explicit CudaMsvEngine(const std::vector<int>& devices) {
        const auto props = open_devices(devices, "MSV");
        for (size_t i = 0; i < devices.size(); ++i) {
            DeviceGuard guard(devices[i]);
            auto s = std::make_unique<Slot>();
            s->device = devices[i];
            s->sm_count = props[i].multiProcessorCount;
            s->smem_optin = props[i].sharedMemPerBlockOptin;
            s->stream = std::make_unique<Stream>();
            s->ev_start = std::make_unique<Event>();
            s->ev_ssv = std::make_unique<Event>();
            s->ev_end = std::make_unique<Event>();
            slots_.push_back(std::move(s));
        }
    }

    std::string name() const override { return "cuda"; }
    MsvCudaStats last_stats() const override { return stats_; }
    void force_variant(const std::string& name) override { forced_ = name; }

    void load_targets(const SeqBatch& targets) override {
        n_ = targets.size();
        if (n_ >= (size_t{1} << 31)) throw UsageError("too many targets in one chunk");
        auto parts = split_longest_first(targets, slots_.size());
        for (size_t d = 0; d < slots_.size(); ++d) {
            Slot& s = *slots_[d];
            s.input_index = std::move(parts[d]);
            s.residues = 0;
            for (uint32_t idx : s.input_index) s.residues += targets.length(idx);
        }
        if (slots_.size() == 1) {
            upload(*slots_[0], targets);
            return;
        }
        // Each device's share packed and copied on a thread of its own.
        std::vector<std::future<void>> done;
        for (auto& s : slots_)
            done.push_back(std::async(std::launch::async, [this, &targets, slot = s.get()] { upload(*slot, targets); }));
        for (auto& d : done) d.get();
    }

    void expect_chunk_residues(uint64_t residues) override {
        // The card's first allocations of a process cost milliseconds: made
        // here, typically while the first chunk is read. Packed targets take a
        // little more than their residues (alignment), and a chunk is split
        // evenly over the devices.
        const size_t per_slot = static_cast<size_t>(residues / slots_.size() + residues / slots_.size() / 16) + kTailPad;
        for (auto& s : slots_) {
            try {
                reserve_residues(*s, per_slot, 0);
            } catch (const ResourceError&) {
                // Too big for this card: load_targets says so, with the real numbers.
            }
        }
    }

    size_t resident_targets() const override { return n_; }

    void score(const MsvByteProfile& prof, std::span<uint16_t> out) override {
        if (out.size() != n_)
            throw InternalError("score(): output has " + std::to_string(out.size()) + " entries for " +
                                std::to_string(n_) + " targets");
        const SsvPlan plan = enqueue(prof, 0, true);
        stats_ = MsvCudaStats{};
        stats_.group = plan.v->G;
        stats_.stripe = plan.v->S;
        stats_.tiles = plan.ntiles;
        stats_.variant = variant_name(*plan.v);
        for (auto& s : slots_) {
            if (s->n() == 0) continue;
            DeviceGuard guard(s->device);
            WARPDP_CUDA_CHECK(cudaStreamSynchronize(s->stream->get()));
            float ssv_ms = 0, all_ms = 0;
            WARPDP_CUDA_CHECK(cudaEventElapsedTime(&ssv_ms, s->ev_start->get(), s->ev_ssv->get()));
            WARPDP_CUDA_CHECK(cudaEventElapsedTime(&all_ms, s->ev_start->get(), s->ev_end->get()));
            stats_.ssv_ms = std::max(stats_.ssv_ms, static_cast<double>(ssv_ms));
            stats_.kernel_ms = std::max(stats_.kernel_ms, static_cast<double>(all_ms));
        }
        stats_.fallback_targets = collect(0, out);
    }

    void score_each(std::span<const MsvByteProfile* const> profiles, const ScoredFn& done) override {
        std::vector<uint16_t> raw(n_);
        const size_t n = profiles.size();
        for (size_t i = 0; i < std::min(n, kQueued); ++i) enqueue(*profiles[i], i, false);
        for (size_t i = 0; i < n; ++i) {
            collect(i % kQueued, raw);
            // Its results are out of the ring: the slot takes a later model.
            if (i + kQueued < n) enqueue(*profiles[i + kQueued], i % kQueued, false);
            done(i, raw);
        }
    }

private:
    // Sends `prof` to every device's stream, its results to results[r];
    // `timed` records the kernel events that score() reads.
    SsvPlan enqueue(const MsvByteProfile& prof, size_t r, bool timed) {
        if (prof.M < 1 || prof.cost.size() != static_cast<size_t>(prof.Kp) * static_cast<size_t>(prof.M + 1) ||
            prof.Kp < kMsvCodes)
            throw InternalError("score(): malformed byte profile");
        const SsvPlan plan = forced_.empty() ? choose_plan(prof.M) : forced_plan(forced_, prof.M);
        const std::vector<uint4> wtab = build_ssv_table(prof, plan);
        std::vector<int16_t> cost(static_cast<size_t>(kMsvCodes) * static_cast<size_t>(prof.M));
        for (int x = 0; x < kMsvCodes; ++x)
            for (int k = 1; k <= prof.M; ++k)
                cost[static_cast<size_t>(x) * static_cast<size_t>(prof.M) + static_cast<size_t>(k - 1)] =
                    prof.cost_at(x, k);
        for (auto& s : slots_) launch(*s, prof, plan, wtab, cost, s->results[r], timed);
        return plan;
    }

    // Waits for results[r] of every device and scatters them to input order;
    // returns the targets the full-MSV kernel recomputed.
    uint64_t collect(size_t r, std::span<uint16_t> out) {
        uint64_t fallbacks = 0;
        for (auto& s : slots_) {
            if (s->n() == 0) continue;
            DeviceGuard guard(s->device);
            auto& res = s->results[r];
            WARPDP_CUDA_CHECK(cudaEventSynchronize(res.copied.get()));
            fallbacks += res.fallback_count.get()[0];
            const uint16_t* got = res.out.get();
            for (size_t j = 0; j < s->n(); ++j) out[s->input_index[j]] = got[j];
        }
        return fallbacks;
    }

    // The buffers that scale with a chunk's residues, for `total` packed bytes
    // in n targets: host staging, and on the card the residues and the tiled
    // kernels' boundary column (2 bytes a residue). They only grow: a database
    // streamed in chunks of similar size allocates once.
    void reserve_residues(Slot& s, size_t total, size_t n) {
        DeviceGuard guard(s.device);
        s.staging.reserve(total);
        if (total <= s.res.size()) return;
        const size_t need = total * 3 + n * kPerTargetBytes;
        const DeviceMemory mem = device_memory();
        // What this slot holds counts as free: it is about to be replaced.
        const size_t held = s.res.size() + 2 * s.bnd.size();
        if (need > mem.budget(held))
            throw ResourceError("MSV target chunk of " + std::to_string(s.residues) + " residues in " +
                                std::to_string(n) + " records needs " + std::to_string(need >> 20) +
                                " MiB on GPU " + std::to_string(s.device) + " but only " +
                                std::to_string(mem.free >> 20) +
                                " MiB are free; split the database into smaller chunks "
                                "(msv_cuda_max_chunk_residues)");
        s.res.reset(0);  // free first, so old and new never coexist on the card
        s.bnd.reset(0);
        s.res.reset(total);
        s.bnd.reset(total);
    }

    void upload(Slot& s, const SeqBatch& targets) {
        DeviceGuard guard(s.device);
        const size_t n = s.n();
        const PackedLayout layout = pack_layout(targets, s.input_index, kAlign, kTailPad);
        reserve_residues(s, layout.bytes, n);
        pack_residues(targets, s.input_index, layout, static_cast<uint8_t>(kPadCode), s.staging.get());
        trace_event("msv-packed");
        const auto& off = layout.off;
        const auto& len = layout.len;
        const size_t total = layout.bytes;
        std::vector<uint8_t> tjb(n);
        for (size_t j = 0; j < n; ++j) tjb[j] = msv_tjb(len[j]);
        s.off.reserve(std::max<size_t>(n, 1));
        s.len.reserve(std::max<size_t>(n, 1));
        s.tjb.reserve(std::max<size_t>(n, 1));
        s.state.reserve(std::max<size_t>(n, 1));
        s.out.reserve(std::max<size_t>(n, 1));
        s.fb_list.reserve(std::max<size_t>(n, 1));
        for (auto& res : s.results) {
            res.out.reserve(std::max<size_t>(n, 1));
            res.fallback_count.reserve(1);
        }
        s.staging.lock();
        WARPDP_CUDA_CHECK(cudaMemcpy(s.res.get(), s.staging.get(), total, cudaMemcpyHostToDevice));
        if (n > 0) {
            WARPDP_CUDA_CHECK(cudaMemcpy(s.off.get(), off.data(), n * sizeof(uint64_t), cudaMemcpyHostToDevice));
            WARPDP_CUDA_CHECK(cudaMemcpy(s.len.get(), len.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
            WARPDP_CUDA_CHECK(cudaMemcpy(s.tjb.get(), tjb.data(), n, cudaMemcpyHostToDevice));
        }
    }

    void launch(Slot& s, const MsvByteProfile& prof, const SsvPlan& plan, const std::vector<uint4>& wtab,
                const std::vector<int16_t>& cost, Slot::Results& res, bool timed) {
        if (s.n() == 0) return;
        DeviceGuard guard(s.device);
        cudaStream_t st = s.stream->get();
        const SsvVariant& v = *plan.v;
        const size_t tile_words = static_cast<size_t>(kWCodes) * static_cast<size_t>(v.S / 8 * v.G);
        s.wtab.reserve(wtab.size());
        s.cost.reserve(cost.size());
        s.counters.reserve(static_cast<size_t>(plan.ntiles) + 2);
        res.wtab.reserve(wtab.size());
        res.cost.reserve(cost.size());
        std::copy(wtab.begin(), wtab.end(), res.wtab.get());
        std::copy(cost.begin(), cost.end(), res.cost.get());
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.wtab.get(), res.wtab.get(), wtab.size() * sizeof(uint4),
                                          cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.cost.get(), res.cost.get(), cost.size() * sizeof(int16_t),
                                          cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaMemsetAsync(s.counters.get(), 0, (plan.ntiles + 2) * sizeof(uint32_t), st));

        const size_t ssv_smem = tile_words * sizeof(uint4);
        WARPDP_CUDA_CHECK(cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(ssv_smem)));
        int per_sm = 0;
        WARPDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, v.kernel, kSsvBlock, ssv_smem));
        if (per_sm < 1) throw ResourceError("SSV kernel " + variant_name(v) + " does not fit on GPU " +
                                            std::to_string(s.device));
        const size_t units = (s.n() + static_cast<size_t>(32 / v.G) - 1) / static_cast<size_t>(32 / v.G);
        const size_t blocks_needed = (units + kSsvBlock / 32 - 1) / (kSsvBlock / 32);
        const unsigned grid =
            static_cast<unsigned>(std::min<size_t>(blocks_needed, static_cast<size_t>(per_sm) * s.sm_count));

        uint32_t* fb_count = s.counters.get() + plan.ntiles;
        SsvParams p;
        p.tg = s.view();
        p.ntiles = plan.ntiles;
        p.bias = prof.bias;
        p.tbm = prof.tbm;
        p.tec = prof.tec;
        p.state = s.state.get();
        p.bnd = s.bnd.get();
        p.out = s.out.get();
        p.fb_list = s.fb_list.get();
        p.fb_count = fb_count;
        if (timed) WARPDP_CUDA_CHECK(cudaEventRecord(s.ev_start->get(), st));
        for (int tile = 0; tile < plan.ntiles; ++tile) {
            p.tile = tile;
            p.wtab = s.wtab.get() + static_cast<size_t>(tile) * tile_words;
            p.work = s.counters.get() + tile;
            WARPDP_CUDA_CHECK_LAUNCH((v.kernel<<<grid, kSsvBlock, ssv_smem, st>>>(p)));
        }
        if (timed) WARPDP_CUDA_CHECK(cudaEventRecord(s.ev_ssv->get(), st));

        if (v.full && prof.bias <= 64) {
            // Fallback targets in registers, the same shape and weight table as the SSV pass.
            MsvGroupParams m;
            m.tg = s.view();
            m.wtab = s.wtab.get();
            m.bias = prof.bias;
            m.tbm = prof.tbm;
            m.tec = prof.tec;
            m.list = s.fb_list.get();
            m.count = fb_count;
            m.work = fb_count + 1;
            m.out = s.out.get();
            WARPDP_CUDA_CHECK(cudaFuncSetAttribute(v.full, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                   static_cast<int>(ssv_smem)));
            int full_per_sm = 0;
            WARPDP_CUDA_CHECK(
                cudaOccupancyMaxActiveBlocksPerMultiprocessor(&full_per_sm, v.full, kSsvBlock, ssv_smem));
            const unsigned full_grid = static_cast<unsigned>(std::max(1, full_per_sm) * s.sm_count);
            WARPDP_CUDA_CHECK_LAUNCH((v.full<<<full_grid, kSsvBlock, ssv_smem, st>>>(m)));
        } else {
            // Tiled models (or bias > 64): one block per target, rows in shared memory.
            const size_t msv_smem = 2 * (static_cast<size_t>(prof.M) + 1) * sizeof(int16_t);
            if (msv_smem > s.smem_optin)
                throw ResourceError("model of " + std::to_string(prof.M) + " nodes is too long for the full-MSV "
                                    "kernel's shared memory on GPU " + std::to_string(s.device));
            WARPDP_CUDA_CHECK(cudaFuncSetAttribute(msv_full_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                   static_cast<int>(msv_smem)));
            MsvParams m;
            m.tg = s.view();
            m.cost = s.cost.get();
            m.M = prof.M;
            m.bias = prof.bias;
            m.tbm = prof.tbm;
            m.tec = prof.tec;
            m.list = s.fb_list.get();
            m.count = fb_count;
            m.out = s.out.get();
            const unsigned msv_grid = static_cast<unsigned>(s.sm_count) * 4u;
            WARPDP_CUDA_CHECK_LAUNCH((msv_full_kernel<<<msv_grid, kMsvBlock, msv_smem, st>>>(m)));
        }
        if (timed) WARPDP_CUDA_CHECK(cudaEventRecord(s.ev_end->get(), st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(res.out.get(), s.out.get(), s.n() * sizeof(uint16_t),
                                          cudaMemcpyDeviceToHost, st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(res.fallback_count.get(), fb_count, sizeof(uint32_t),
                                          cudaMemcpyDeviceToHost, st));
        WARPDP_CUDA_CHECK(cudaEventRecord(res.copied.get(), st));
    }

    std::vector<std::unique_ptr<Slot>> slots_;
    size_t n_ = 0;
    std::string forced_;
    MsvCudaStats stats_;
};

}  // namespace

std::unique_ptr<MsvCudaEngine> make_msv_cuda_engine_ex(const std::vector<int>& devices) {
    return std::make_unique<CudaMsvEngine>(devices);
}

std::unique_ptr<MsvEngine> make_msv_cuda_engine(const std::vector<int>& devices) {
    return make_msv_cuda_engine_ex(devices);
}

std::vector<std::string> msv_cuda_variants() {
    std::vector<std::string> names;
    for (const auto& v : kSsvVariants) names.push_back(variant_name(v));
    return names;
}

size_t msv_cuda_max_chunk_residues(int device) {
    DeviceGuard guard(device);
    // A second reserve beyond the budget: a margin for the estimate below and
    // for the per-model buffers, which come on top of the chunk.
    const uint64_t budget = device_memory().budget();
    if (budget <= kDeviceReserve) return 0;
    // 3 bytes a residue (residues, boundary column) plus alignment and
    // per-target arrays, assuming records of >= 64 residues on average.
    constexpr double kBytesPerResidue = 3.0 + (kAlign + kPerTargetBytes) / 64.0;
    return static_cast<size_t>(static_cast<double>(budget - kDeviceReserve) / kBytesPerResidue);
}

}  // namespace warpdp
