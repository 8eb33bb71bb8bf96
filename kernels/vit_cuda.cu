// The CUDA Viterbi-filter engine: keeps a chunk of targets resident on one or
// more GPUs (sorted by length, split by residue count), and for each model
// scores the requested subset with vit_kernel (kernels/vit_kernels.cuh).
// Results come back in the caller's order and equal vit_reference bit for bit.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "kernels/cuda_check.cuh"
#include "kernels/resident_targets.hpp"
#include "kernels/vit_cuda.cuh"
#include "kernels/vit_kernels.cuh"

namespace warpdp {
namespace {

using namespace warpdp::cuda;

using VitKernel = void (*)(VitParams);

struct VitVariant {
    int G;  // lanes per target
    int S;  // nodes per lane
    VitKernel kernel;
};

// The one table of kernel instances. A tile holds G*S nodes; any instance
// runs any model (tiled when M > G*S), the dispatcher picks by choose_plan.
const VitVariant kVitVariants[] = {
    {32, 2, vit_kernel<32, 2>},
    {32, 4, vit_kernel<32, 4>},
    {32, 6, vit_kernel<32, 6>},
    {32, 8, vit_kernel<32, 8>},
    {32, 10, vit_kernel<32, 10>},
    {32, 12, vit_kernel<32, 12>},
    {32, 16, vit_kernel<32, 16>},
    {16, 4, vit_kernel<16, 4>},
    {16, 6, vit_kernel<16, 6>},
    {16, 8, vit_kernel<16, 8>},
    {16, 12, vit_kernel<16, 12>},
    {8, 4, vit_kernel<8, 4>},
    {8, 6, vit_kernel<8, 6>},
    {8, 8, vit_kernel<8, 8>},
    {8, 12, vit_kernel<8, 12>},
    {8, 16, vit_kernel<8, 16>},
};
// Tiled models reload a tile's transitions every row; narrower tiles waste
// fewer padding nodes but pay the per-tile shuffles more often.
constexpr int kMinTiledS = 8;

struct VitPlan {
    const VitVariant* v = nullptr;
    int ntiles = 1;
};

std::string variant_name(const VitVariant& v) {
    return "vit_g" + std::to_string(v.G) + "_s" + std::to_string(v.S);
}

// Untiled: the instance with the least estimated time per target row. Tiled
// (M > 512): G = 32 with the least padding (measured: within 5% of the best).
VitPlan choose_plan(int M) {
    VitPlan plan;
    long best = -1;
    for (const auto& v : kVitVariants) {
        if (v.G * v.S < M) continue;
        // Measured on an H200 (docs/vit-cuda.md): time per target row ~ G * (S + 6),
        // and S = 16 (225 registers, 2 blocks per SM) about 20% more.
        const long cost = static_cast<long>(v.G) * (v.S + 6) * (v.S >= 16 ? 6 : 5);
        if (best < 0 || cost < best) {
            best = cost;
            plan.v = &v;
        }
    }
    if (plan.v) return plan;
    for (const auto& v : kVitVariants) {
        if (v.G != 32 || v.S < kMinTiledS) continue;
        const int w = v.G * v.S;
        const int nt = (M + w - 1) / w;
        const long padded = static_cast<long>(nt) * w;
        if (best < 0 || padded <= best) {  // ties: the wider lanes (table is ascending)
            best = padded;
            plan.v = &v;
            plan.ntiles = nt;
        }
    }
    return plan;
}

VitPlan forced_plan(const std::string& name, int M) {
    for (const auto& v : kVitVariants)
        if (variant_name(v) == name) return VitPlan{&v, (M + v.G * v.S - 1) / (v.G * v.S)};
    throw UsageError("unknown Viterbi variant " + name);
}

uint32_t pack(int16_t lo, int16_t hi) {
    return static_cast<uint32_t>(static_cast<uint16_t>(lo)) | (static_cast<uint32_t>(static_cast<uint16_t>(hi)) << 16);
}

// The profile in the kernel's lane-interleaved layout; nodes past M get -32768
// everywhere, which can never reach a real node or raise xE (vit_kernels.cuh).
void build_tables(const VitWordProfile& p, const VitPlan& plan, std::vector<int4>& trans,
                  std::vector<uint32_t>& emit) {
    const int G = plan.v->G, S = plan.v->S, nt = plan.ntiles;
    auto node_of = [&](int tile, int lane, int s) { return tile * G * S + lane * S + s + 1; };
    trans.assign(static_cast<size_t>(nt) * S * 2 * G, int4{});
    for (int tile = 0; tile < nt; ++tile)
        for (int s = 0; s < S; ++s)
            for (int lane = 0; lane < G; ++lane) {
                const int k = node_of(tile, lane, s);
                auto t = [&](VitTrans slot) -> int { return k <= p.M ? p.t(k, slot) : kWordNegInf; };
                const size_t at = ((static_cast<size_t>(tile) * S + s) * 2) * G + lane;
                trans[at] = int4{t(kVBM), t(kVMM), t(kVIM), t(kVDM)};
                trans[at + G] = int4{t(kVMD), t(kVMI), t(kVII), t(kVDD)};
            }
    emit.assign(static_cast<size_t>(p.Kp) * nt * (S / 2) * G, 0);
    for (int x = 0; x < p.Kp; ++x)
        for (int tile = 0; tile < nt; ++tile)
            for (int jp = 0; jp < S / 2; ++jp)
                for (int lane = 0; lane < G; ++lane) {
                    const int k0 = node_of(tile, lane, 2 * jp), k1 = k0 + 1;
                    const int16_t e0 = k0 <= p.M ? p.e(x, k0) : kWordNegInf;
                    const int16_t e1 = k1 <= p.M ? p.e(x, k1) : kWordNegInf;
                    emit[((static_cast<size_t>(x) * nt + tile) * (S / 2) + jp) * G + lane] = pack(e0, e1);
                }
}

struct Slot {
    int device = 0;
    int sm_count = 0;
    std::vector<uint32_t> input_index;  // local (length-sorted) index -> input index
    std::unique_ptr<Stream> stream;
    std::unique_ptr<Event> ev_start, ev_end;
    DeviceBuffer<uint8_t> res;
    DeviceBuffer<uint64_t> off;
    DeviceBuffer<uint32_t> len;
    DeviceBuffer<int16_t> ncj;
    DeviceBuffer<uint32_t> list;
    DeviceBuffer<uint32_t> out;
    DeviceBuffer<uint32_t> work;
    DeviceBuffer<int4> trans;
    DeviceBuffer<uint32_t> emit;
    DeviceBuffer<int16_t> scratch;
    PinnedBuffer<uint32_t> host_out;
    // Per score() call: local indices in work order and the caller positions they answer.
    std::vector<uint32_t> todo_local, todo_pos;
    uint64_t todo_residues = 0;
};

class CudaVitEngine final : public VitCudaEngine {
public:
    explicit CudaVitEngine(const std::vector<int>& devices) {
        const auto props = open_devices(devices, "Viterbi");
        for (size_t i = 0; i < devices.size(); ++i) {
            DeviceGuard guard(devices[i]);
            auto s = std::make_unique<Slot>();
            s->device = devices[i];
            s->sm_count = props[i].multiProcessorCount;
            s->stream = std::make_unique<Stream>();
            s->ev_start = std::make_unique<Event>();
            s->ev_end = std::make_unique<Event>();
            slots_.push_back(std::move(s));
        }
    }

    std::string name() const override { return "cuda"; }
    VitCudaStats last_stats() const override { return stats_; }
    void force_variant(const std::string& name) override { forced_ = name; }

    void load_targets(const SeqBatch& targets) override {
        const size_t n = targets.size();
        if (n >= (size_t{1} << 31)) throw UsageError("too many targets in one chunk");
        auto parts = split_longest_first(targets, slots_.size());
        slot_of_.assign(n, 0);
        local_of_.assign(n, 0);
        for (size_t d = 0; d < slots_.size(); ++d) {
            slots_[d]->input_index = std::move(parts[d]);
            const auto& idx = slots_[d]->input_index;
            for (size_t j = 0; j < idx.size(); ++j) {
                slot_of_[idx[j]] = static_cast<uint32_t>(d);
                local_of_[idx[j]] = static_cast<uint32_t>(j);
            }
        }
        lengths_.resize(n);
        for (size_t i = 0; i < n; ++i) lengths_[i] = targets.length(i);
        for (auto& s : slots_) upload(*s, targets);
    }

    void score(const VitWordProfile& prof, std::span<const uint32_t> which, std::span<uint32_t> out) override {
        if (out.size() != which.size())
            throw InternalError("score(): " + std::to_string(out.size()) + " outputs for " +
                                std::to_string(which.size()) + " targets");
        if (prof.M < 1 || prof.Kp < 29 ||
            prof.emit.size() != static_cast<size_t>(prof.Kp) * static_cast<size_t>(prof.M + 1) ||
            prof.trans.size() != static_cast<size_t>(prof.M + 1) * kVitNumTrans)
            throw InternalError("score(): malformed word profile");
        for (auto& s : slots_) {
            s->todo_local.clear();
            s->todo_pos.clear();
            s->todo_residues = 0;
        }
        for (size_t j = 0; j < which.size(); ++j) {
            if (which[j] >= slot_of_.size())
                throw InternalError("score(): target " + std::to_string(which[j]) + " is not resident");
            Slot& s = *slots_[slot_of_[which[j]]];
            s.todo_local.push_back(local_of_[which[j]]);
            s.todo_pos.push_back(static_cast<uint32_t>(j));
            s.todo_residues += lengths_[which[j]];
        }
        const VitPlan plan = forced_.empty() ? choose_plan(prof.M) : forced_plan(forced_, prof.M);
        std::vector<int4> trans;
        std::vector<uint32_t> emit;
        build_tables(prof, plan, trans, emit);
        for (auto& s : slots_) launch(*s, plan, trans, emit);

        stats_ = VitCudaStats{};
        stats_.group = plan.v->G;
        stats_.stripe = plan.v->S;
        stats_.variant = variant_name(*plan.v);
        stats_.tiles = plan.ntiles;
        for (auto& s : slots_) {
            if (s->todo_local.empty()) continue;
            DeviceGuard guard(s->device);
            WARPDP_CUDA_CHECK(cudaStreamSynchronize(s->stream->get()));
            float ms = 0;
            WARPDP_CUDA_CHECK(cudaEventElapsedTime(&ms, s->ev_start->get(), s->ev_end->get()));
            stats_.kernel_ms = std::max(stats_.kernel_ms, static_cast<double>(ms));
            stats_.targets += s->todo_local.size();
            stats_.residues += s->todo_residues;
            const uint32_t* r = s->host_out.get();
            for (size_t q = 0; q < s->todo_local.size(); ++q) out[s->todo_pos[q]] = r[q];
        }
    }

private:
    void upload(Slot& s, const SeqBatch& targets) {
        DeviceGuard guard(s.device);
        const size_t n = s.input_index.size();
        const PackedTargets packed = pack_targets(targets, s.input_index, 1, 0, 0);
        const auto& off = packed.off;
        const auto& len = packed.len;
        const auto& res = packed.res;
        std::vector<int16_t> ncj(n);
        for (size_t j = 0; j < n; ++j) ncj[j] = vit_ncj_move(len[j]);
        if (res.size() > s.res.size()) {  // grows only: chunks of similar size allocate once
            s.res.reset(0);
            s.res.reset(res.size());
        }
        s.off.reserve(std::max<size_t>(n, 1));
        s.len.reserve(std::max<size_t>(n, 1));
        s.ncj.reserve(std::max<size_t>(n, 1));
        s.list.reserve(std::max<size_t>(n, 1));
        s.out.reserve(std::max<size_t>(n, 1));
        s.host_out.reserve(std::max<size_t>(n, 1));
        s.work.reserve(1);
        WARPDP_CUDA_CHECK(cudaMemcpy(s.res.get(), res.data(), res.size(), cudaMemcpyHostToDevice));
        if (n > 0) {
            WARPDP_CUDA_CHECK(cudaMemcpy(s.off.get(), off.data(), n * sizeof(uint64_t), cudaMemcpyHostToDevice));
            WARPDP_CUDA_CHECK(cudaMemcpy(s.len.get(), len.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
            WARPDP_CUDA_CHECK(cudaMemcpy(s.ncj.get(), ncj.data(), n * sizeof(int16_t), cudaMemcpyHostToDevice));
        }
    }

    void launch(Slot& s, const VitPlan& plan, const std::vector<int4>& trans, const std::vector<uint32_t>& emit) {
        const size_t n = s.todo_local.size();
        if (n == 0) return;
        DeviceGuard guard(s.device);
        cudaStream_t st = s.stream->get();
        // Local indices ascend with decreasing length: longest targets are taken first.
        std::vector<uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return s.todo_local[a] < s.todo_local[b]; });
        std::vector<uint32_t> local(n), pos(n);
        for (size_t q = 0; q < n; ++q) {
            local[q] = s.todo_local[order[q]];
            pos[q] = s.todo_pos[order[q]];
        }
        s.todo_local.swap(local);
        s.todo_pos.swap(pos);

        s.trans.reserve(trans.size());
        s.emit.reserve(emit.size());
        // list and host_out are sized for the whole chunk at upload.
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.list.get(), s.todo_local.data(), n * sizeof(uint32_t),
                                          cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.trans.get(), trans.data(), trans.size() * sizeof(int4),
                                          cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.emit.get(), emit.data(), emit.size() * sizeof(uint32_t),
                                          cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaMemsetAsync(s.work.get(), 0, sizeof(uint32_t), st));

        const VitVariant& v = *plan.v;
        int per_sm = 0;
        WARPDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, v.kernel, kVitBlock, 0));
        if (per_sm < 1)
            throw ResourceError("Viterbi kernel " + variant_name(v) + " does not fit on GPU " +
                                std::to_string(s.device));
        constexpr size_t kWarps = kVitBlock / 32;
        const size_t per_warp = static_cast<size_t>(32 / v.G);
        const size_t blocks_needed = (n + kWarps * per_warp - 1) / (kWarps * per_warp);
        const unsigned grid =
            static_cast<unsigned>(std::min<size_t>(blocks_needed, static_cast<size_t>(per_sm) * s.sm_count));
        VitParams p;
        p.tg = VitTargets{s.res.get(), s.off.get(), s.len.get(), s.ncj.get()};
        p.list = s.list.get();
        p.n = static_cast<uint32_t>(n);
        p.out = s.out.get();
        p.trans = s.trans.get();
        p.emit = s.emit.get();
        p.ntiles = plan.ntiles;
        p.work = s.work.get();
        if (plan.ntiles > 1) {
            s.scratch.reserve(static_cast<size_t>(grid) * kWarps * static_cast<size_t>(plan.ntiles) * 3 *
                              static_cast<size_t>(v.S) * 32);
            p.scratch = s.scratch.get();
        }
        WARPDP_CUDA_CHECK(cudaEventRecord(s.ev_start->get(), st));
        WARPDP_CUDA_CHECK_LAUNCH((v.kernel<<<grid, kVitBlock, 0, st>>>(p)));
        WARPDP_CUDA_CHECK(cudaEventRecord(s.ev_end->get(), st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.host_out.get(), s.out.get(), n * sizeof(uint32_t),
                                          cudaMemcpyDeviceToHost, st));
    }

    std::vector<std::unique_ptr<Slot>> slots_;
    std::vector<uint32_t> slot_of_, local_of_;
    std::vector<uint64_t> lengths_;
    VitCudaStats stats_;
    std::string forced_;
};

}  // namespace

std::unique_ptr<VitCudaEngine> make_vit_cuda_engine_ex(const std::vector<int>& devices) {
    return std::make_unique<CudaVitEngine>(devices);
}

std::unique_ptr<VitEngine> make_vit_cuda_engine(const std::vector<int>& devices) {
    return make_vit_cuda_engine_ex(devices);
}

std::vector<std::string> vit_cuda_variants() {
    std::vector<std::string> names;
    for (const auto& v : kVitVariants) names.push_back(variant_name(v));
    return names;
}

}  // namespace warpdp
