// The CUDA Viterbi-filter engine: keeps a chunk of targets resident on one or
// more GPUs (sorted by length, split by residue count), and for each model
// scores the requested subset: the pairs core/hmmer/vit/vit_word16 proves safe with the
// packed 16-bit vit16_kernel (kernels/vit/vit16_kernels.cuh), the rest (targets
// with gap/'*'/'~' codes or beyond the safe length, unsafe models) with the
// int32 vit_kernel (kernels/vit/vit_kernels.cuh).
// Results come back in the caller's order and equal vit_reference bit for bit.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/vit/vit_word16.hpp"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/resident_targets.hpp"
#include "kernels/vit/vit16_kernels.cuh"
#include "kernels/vit/vit_cuda.hpp"
#include "kernels/vit/vit_kernels.cuh"

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

// The packed 16-bit instances: a tile holds 2*G*S nodes.
struct Vit16Variant {
    int G;  // lanes per target
    int S;  // pairs per lane
    void (*kernel)(Vit16Params);        // models of one tile
    void (*kernel_tiled)(Vit16Params);  // wider models
};

struct Vit16Launch {
    const Vit16Variant* v = nullptr;
    int ntiles = 1;
};

const Vit16Variant kVit16Variants[] = {
    {4, 6, vit16_kernel<4, 6, false, false>, vit16_kernel<4, 6, false, true>},
    {4, 7, vit16_kernel<4, 7, false, false>, vit16_kernel<4, 7, false, true>},
    {4, 8, vit16_kernel<4, 8, false, false>, vit16_kernel<4, 8, false, true>},
    {4, 9, vit16_kernel<4, 9, false, false>, vit16_kernel<4, 9, false, true>},
    {4, 10, vit16_kernel<4, 10, false, false>, vit16_kernel<4, 10, false, true>},
    {4, 11, vit16_kernel<4, 11, false, false>, vit16_kernel<4, 11, false, true>},
    {4, 12, vit16_kernel<4, 12, true, false>, vit16_kernel<4, 12, true, true>},
    {8, 6, vit16_kernel<8, 6, false, false>, vit16_kernel<8, 6, false, true>},
    {8, 7, vit16_kernel<8, 7, false, false>, vit16_kernel<8, 7, false, true>},
    {8, 8, vit16_kernel<8, 8, false, false>, vit16_kernel<8, 8, false, true>},
    {8, 9, vit16_kernel<8, 9, false, false>, vit16_kernel<8, 9, false, true>},
    {8, 10, vit16_kernel<8, 10, false, false>, vit16_kernel<8, 10, false, true>},
    {8, 11, vit16_kernel<8, 11, false, false>, vit16_kernel<8, 11, false, true>},
    {8, 12, vit16_kernel<8, 12, true, false>, vit16_kernel<8, 12, true, true>},
    {8, 13, vit16_kernel<8, 13, false, false>, vit16_kernel<8, 13, false, true>},
    {8, 14, vit16_kernel<8, 14, false, false>, vit16_kernel<8, 14, false, true>},
    {8, 15, vit16_kernel<8, 15, false, false>, vit16_kernel<8, 15, false, true>},
    {8, 16, vit16_kernel<8, 16, false, false>, vit16_kernel<8, 16, false, true>},
    {8, 17, vit16_kernel<8, 17, false, false>, vit16_kernel<8, 17, false, true>},
    {16, 6, vit16_kernel<16, 6, false, false>, vit16_kernel<16, 6, false, true>},
    {16, 8, vit16_kernel<16, 8, false, false>, vit16_kernel<16, 8, false, true>},
    {16, 9, vit16_kernel<16, 9, false, false>, vit16_kernel<16, 9, false, true>},
    {16, 10, vit16_kernel<16, 10, false, false>, vit16_kernel<16, 10, false, true>},
    {16, 12, vit16_kernel<16, 12, true, false>, vit16_kernel<16, 12, true, true>},
    {16, 13, vit16_kernel<16, 13, false, false>, vit16_kernel<16, 13, false, true>},
    {16, 14, vit16_kernel<16, 14, false, false>, vit16_kernel<16, 14, false, true>},
    {16, 15, vit16_kernel<16, 15, false, false>, vit16_kernel<16, 15, false, true>},
    {16, 16, vit16_kernel<16, 16, false, false>, vit16_kernel<16, 16, false, true>},
    {32, 6, vit16_kernel<32, 6, false, false>, vit16_kernel<32, 6, false, true>},
    {32, 8, vit16_kernel<32, 8, false, false>, vit16_kernel<32, 8, false, true>},
    {32, 9, vit16_kernel<32, 9, false, false>, vit16_kernel<32, 9, false, true>},
    {32, 10, vit16_kernel<32, 10, false, false>, vit16_kernel<32, 10, false, true>},
    {32, 11, vit16_kernel<32, 11, false, false>, vit16_kernel<32, 11, false, true>},
    {32, 12, vit16_kernel<32, 12, true, false>, vit16_kernel<32, 12, true, true>},
    {32, 14, vit16_kernel<32, 14, false, false>, vit16_kernel<32, 14, false, true>},
    {32, 16, vit16_kernel<32, 16, false, false>, vit16_kernel<32, 16, false, true>},
    {32, 18, vit16_kernel<32, 18, false, false>, vit16_kernel<32, 18, false, true>},
    // Past 2*32*18 = 1152 nodes, one tile still beats two when the D-side
    // transitions come from L1 (registers would spill).
    {32, 20, vit16_kernel<32, 20, true, false>, vit16_kernel<32, 20, true, true>},
    {32, 22, vit16_kernel<32, 22, true, false>, vit16_kernel<32, 22, true, true>},
    {32, 24, vit16_kernel<32, 24, true, false>, vit16_kernel<32, 24, true, true>},
};

std::string variant16_name(const Vit16Variant& v) {
    return "vit16_g" + std::to_string(v.G) + "_s" + std::to_string(v.S);
}

// Kernel time per target row, in units measured on an H200 (bench_vit_gpu
// "variants", docs/vit-cuda.md): G x c(S) for one tile, where c(S) steps up
// where registers cost an SM a block (past S = 12; S = 12 reads half its
// transitions from L1 to stay below it, and so do S = 20-24, which would
// spill); a tiled model pays ~2.4 c(S) + 0.8 per tile for its scratch
// traffic and word reloads (10-15% more past S = 16), and only G = 32 tiles.
double cost16(const Vit16Variant& v, int ntiles) {
    // c(S) for S = 6..24, measured for every stripe that has an instance
    // (S = 19, 21, 23 have none: interpolated).
    static const double c[] = {0.71, 0.77, 0.82, 0.96, 1.00, 1.06, 1.14, 1.48, 1.48, 1.58,
                               1.62, 1.69, 1.66, 1.84, 2.01, 2.21, 2.40, 2.55, 2.69};
    const double cs = c[std::clamp(v.S, 6, 24) - 6];
    return v.G * (ntiles > 1 ? (2.4 * cs + 0.8) * ntiles : cs);
}

Vit16Launch choose_plan16(int M) {
    Vit16Launch plan;
    double best = -1;
    for (const auto& v : kVit16Variants) {
        const int w = 2 * v.G * v.S;
        const int nt = (M + w - 1) / w;
        if (nt > 1 && v.G != 32) continue;
        const double cost = cost16(v, nt);
        if (best < 0 || cost < best) {
            best = cost;
            plan.v = &v;
            plan.ntiles = nt;
        }
    }
    return plan;
}

const Vit16Variant* find_variant16(const std::string& name) {
    for (const auto& v : kVit16Variants)
        if (variant16_name(v) == name) return &v;
    return nullptr;
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

// The 16-bit kernel's tables (Vit16Params): words from vit16_trans/vit16_emit,
// pair (t, s) of tile j holding nodes j*2GS + tS + s + 1 (low) and GS more (high).
struct Tables16 {
    std::vector<uint4> trans;
    std::vector<uint4> emit;
    std::vector<int2> scan;
};

Tables16 build_tables16(const VitWordProfile& p, const Vit16Plan& p16, const Vit16Launch& plan) {
    const int G = plan.v->G, S = plan.v->S, nt = plan.ntiles, H = G * S, LG = vit16_log2(G);
    auto node = [&](int tile, int lane, int s, int half) { return tile * 2 * H + half * H + lane * S + s + 1; };
    auto word = [&](int tile, int lane, int s, VitTrans slot) {
        return pack(vit16_trans(p, p16, node(tile, lane, s, 0), slot), vit16_trans(p, p16, node(tile, lane, s, 1), slot));
    };
    Tables16 tb;
    tb.trans.resize(static_cast<size_t>(nt) * S * 2 * G);
    const int S4 = (S + 3) / 4;
    tb.emit.assign(static_cast<size_t>(p.Kp) * nt * S4 * G, uint4{0, 0, 0, 0});
    tb.scan.resize(static_cast<size_t>(nt) * (LG + 1) * G);
    for (int tile = 0; tile < nt; ++tile) {
        for (int s = 0; s < S; ++s)
            for (int lane = 0; lane < G; ++lane) {
                const size_t at = ((static_cast<size_t>(tile) * S + s) * 2) * G + static_cast<size_t>(lane);
                tb.trans[at] = uint4{word(tile, lane, s, kVBM), word(tile, lane, s, kVMM), word(tile, lane, s, kVIM),
                                     word(tile, lane, s, kVDM)};
                tb.trans[at + static_cast<size_t>(G)] = uint4{word(tile, lane, s, kVMD), word(tile, lane, s, kVMI),
                                                              word(tile, lane, s, kVII), word(tile, lane, s, kVDD)};
                for (int x = 0; x < p.Kp; ++x) {
                    uint4& q = tb.emit[((static_cast<size_t>(x) * nt + tile) * S4 + s / 4) * G + static_cast<size_t>(lane)];
                    (s % 4 == 0 ? q.x : s % 4 == 1 ? q.y : s % 4 == 2 ? q.z : q.w) =
                        pack(vit16_emit(p, x, node(tile, lane, s, 0)), vit16_emit(p, x, node(tile, lane, s, 1)));
                }
            }
        // D->D sums in int32: lane_sum[h][t] over the lane's S nodes, then the scan's windows.
        std::vector<long> lane_sum[2];
        for (int h = 0; h < 2; ++h) {
            lane_sum[h].assign(static_cast<size_t>(G), 0);
            for (int lane = 0; lane < G; ++lane)
                for (int s = 0; s < S; ++s)
                    lane_sum[h][static_cast<size_t>(lane)] += vit16_trans(p, p16, node(tile, lane, s, h), kVDD);
        }
        auto window = [&](int h, int from, int to) {  // lanes from..to inclusive
            long b = 0;
            for (int w = from; w <= to; ++w) b += lane_sum[h][static_cast<size_t>(w)];
            return static_cast<int>(b);
        };
        for (int q = 0; q <= LG; ++q)
            for (int lane = 0; lane < G; ++lane) {
                int2 v;
                if (q == LG) {
                    v = int2{window(0, 0, lane), window(1, 0, lane)};
                } else if (lane >= (1 << q)) {
                    v = int2{window(0, lane - (1 << q) + 1, lane), window(1, lane - (1 << q) + 1, lane)};
                } else {
                    v = int2{kVit16ScanOff, kVit16ScanOff};
                }
                tb.scan[(static_cast<size_t>(tile) * (LG + 1) + q) * G + static_cast<size_t>(lane)] = v;
            }
    }
    return tb;
}

struct Slot {
    int device = 0;
    int sm_count = 0;
    std::vector<uint32_t> input_index;  // local (length-sorted) index -> input index
    std::unique_ptr<Stream> stream;
    std::unique_ptr<Event> ev_start, ev_end;
    StagingBuffer staging;  // packed residues on their way up, reused chunk after chunk
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
    DeviceBuffer<uint4> trans16;
    DeviceBuffer<uint4> emit16;
    DeviceBuffer<int2> scan16;
    DeviceBuffer<uint32_t> scratch16;
    PinnedBuffer<uint32_t> host_out;
    // Per score() call: local indices in work order and the caller positions
    // they answer; the first n16 go to the 16-bit kernel, the rest to the int32 one.
    std::vector<uint32_t> todo_local, todo_pos;
    size_t n16 = 0;
    uint64_t todo_residues = 0, residues16 = 0;
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
        codes_.resize(n);
        for (size_t i = 0; i < n; ++i) {
            lengths_[i] = targets.length(i);
            uint32_t m = 0;
            for (uint8_t c : targets.seq(i)) m |= c < 32 ? uint32_t{1} << c : 0x80000000u;
            codes_[i] = m;
        }
        for (auto& s : slots_) upload(*s, targets);
    }

    void score(const VitWordProfile& prof, std::span<const uint32_t> which, std::span<uint32_t> out) override {
        if (out.size() != which.size())
            throw InternalError("score(): " + std::to_string(out.size()) + " outputs for " +
                                std::to_string(which.size()) + " targets");
        if (prof.M < 1 || prof.Kp < 1 || prof.Kp > 31 ||
            prof.emit.size() != static_cast<size_t>(prof.Kp) * static_cast<size_t>(prof.M + 1) ||
            prof.trans.size() != static_cast<size_t>(prof.M + 1) * kVitNumTrans)
            throw InternalError("score(): malformed word profile");
        for (auto& s : slots_) {
            s->todo_local.clear();
            s->todo_pos.clear();
            s->todo_residues = 0;
            s->residues16 = 0;
        }
        // A forced int32 instance takes everything; otherwise safe pairs go to 16 bits.
        const bool force32 = !forced_.empty() && !find_variant16(forced_);
        const Vit16Plan p16 = force32 ? Vit16Plan{} : vit16_plan(prof);
        // core/hmmer/vit/vit_word16's conditions: a safe length and no code with a -inf emission.
        auto safe16 = [&p16](uint64_t L, uint32_t codes) {
            return p16.ok && L <= p16.max_len && (codes & (p16.bad_codes | 0x80000000u)) == 0;
        };
        std::vector<uint32_t> pos32;
        for (size_t j = 0; j < which.size(); ++j) {
            if (which[j] >= slot_of_.size())
                throw InternalError("score(): target " + std::to_string(which[j]) + " is not resident");
            const uint64_t L = lengths_[which[j]];
            if (codes_[which[j]] >> prof.Kp)  // the kernels index emissions by code
                throw InternalError("score(): target " + std::to_string(which[j]) + " holds a code outside the model's alphabet");
            if (safe16(L, codes_[which[j]])) {
                Slot& s = *slots_[slot_of_[which[j]]];
                s.todo_local.push_back(local_of_[which[j]]);
                s.todo_pos.push_back(static_cast<uint32_t>(j));
                s.todo_residues += L;
                s.residues16 += L;
            } else {
                pos32.push_back(static_cast<uint32_t>(j));
            }
        }
        for (auto& s : slots_) s->n16 = s->todo_local.size();
        for (uint32_t j : pos32) {
            Slot& s = *slots_[slot_of_[which[j]]];
            s.todo_local.push_back(local_of_[which[j]]);
            s.todo_pos.push_back(j);
            s.todo_residues += lengths_[which[j]];
        }
        const VitPlan plan = !forced_.empty() && force32 ? forced_plan(forced_, prof.M) : choose_plan(prof.M);
        Vit16Launch plan16 = choose_plan16(prof.M);
        if (!forced_.empty() && !force32) {
            plan16.v = find_variant16(forced_);
            const int w = 2 * plan16.v->G * plan16.v->S;
            plan16.ntiles = (prof.M + w - 1) / w;
        }
        std::vector<int4> trans;
        std::vector<uint32_t> emit;
        if (!pos32.empty()) build_tables(prof, plan, trans, emit);
        Tables16 t16;
        if (which.size() > pos32.size()) t16 = build_tables16(prof, p16, plan16);
        for (auto& s : slots_) launch(*s, plan, trans, emit, plan16, p16, t16);

        stats_ = VitCudaStats{};
        if (!pos32.empty()) {
            stats_.group = plan.v->G;
            stats_.stripe = plan.v->S;
            stats_.variant = variant_name(*plan.v);
            stats_.tiles = plan.ntiles;
        }
        if (which.size() > pos32.size()) {
            stats_.variant16 = variant16_name(*plan16.v);
            stats_.tiles16 = plan16.ntiles;
        }
        for (auto& s : slots_) {
            if (s->todo_local.empty()) continue;
            DeviceGuard guard(s->device);
            WARPDP_CUDA_CHECK(cudaStreamSynchronize(s->stream->get()));
            float ms = 0;
            WARPDP_CUDA_CHECK(cudaEventElapsedTime(&ms, s->ev_start->get(), s->ev_end->get()));
            stats_.kernel_ms = std::max(stats_.kernel_ms, static_cast<double>(ms));
            stats_.targets += s->todo_local.size();
            stats_.residues += s->todo_residues;
            stats_.targets16 += s->n16;
            stats_.residues16 += s->residues16;
            const uint32_t* r = s->host_out.get();
            for (size_t q = 0; q < s->todo_local.size(); ++q) out[s->todo_pos[q]] = r[q];
        }
    }

private:
    void upload(Slot& s, const SeqBatch& targets) {
        DeviceGuard guard(s.device);
        const size_t n = s.input_index.size();
        const PackedLayout layout = pack_layout(targets, s.input_index, 1, 0);
        s.staging.reserve(layout.bytes);
        pack_residues(targets, s.input_index, layout, 0, s.staging.get());
        const auto& off = layout.off;
        const auto& len = layout.len;
        std::vector<int16_t> ncj(n);
        for (size_t j = 0; j < n; ++j) ncj[j] = vit_ncj_move(len[j]);
        if (layout.bytes > s.res.size()) {  // grows only: chunks of similar size allocate once
            s.res.reset(0);
            s.res.reset(layout.bytes);
        }
        s.off.reserve(std::max<size_t>(n, 1));
        s.len.reserve(std::max<size_t>(n, 1));
        s.ncj.reserve(std::max<size_t>(n, 1));
        s.list.reserve(std::max<size_t>(n, 1));
        s.out.reserve(std::max<size_t>(n, 1));
        s.host_out.reserve(std::max<size_t>(n, 1));
        s.work.reserve(2);
        s.staging.lock();
        WARPDP_CUDA_CHECK(cudaMemcpy(s.res.get(), s.staging.get(), layout.bytes, cudaMemcpyHostToDevice));
        if (n > 0) {
            WARPDP_CUDA_CHECK(cudaMemcpy(s.off.get(), off.data(), n * sizeof(uint64_t), cudaMemcpyHostToDevice));
            WARPDP_CUDA_CHECK(cudaMemcpy(s.len.get(), len.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
            WARPDP_CUDA_CHECK(cudaMemcpy(s.ncj.get(), ncj.data(), n * sizeof(int16_t), cudaMemcpyHostToDevice));
        }
    }

    // Grid for `n` targets of a kernel taking `G` lanes each, capped at what fits at once.
    static unsigned grid_for(const Slot& s, const void* kernel, int block, int G, size_t n, const std::string& name) {
        int per_sm = 0;
        WARPDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
        if (per_sm < 1)
            throw ResourceError("Viterbi kernel " + name + " does not fit on GPU " + std::to_string(s.device));
        const size_t per_block = static_cast<size_t>(block / 32) * static_cast<size_t>(32 / G);
        return static_cast<unsigned>(
            std::min<size_t>((n + per_block - 1) / per_block, static_cast<size_t>(per_sm) * s.sm_count));
    }

    void launch(Slot& s, const VitPlan& plan, const std::vector<int4>& trans, const std::vector<uint32_t>& emit,
                const Vit16Launch& plan16, const Vit16Plan& p16, const Tables16& t16) {
        const size_t n = s.todo_local.size();
        if (n == 0) return;
        DeviceGuard guard(s.device);
        cudaStream_t st = s.stream->get();
        // Within each kernel's share, local indices ascend with decreasing length:
        // longest targets are taken first.
        std::vector<uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        auto by_local = [&](uint32_t a, uint32_t b) { return s.todo_local[a] < s.todo_local[b]; };
        std::sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(s.n16), by_local);
        std::sort(order.begin() + static_cast<std::ptrdiff_t>(s.n16), order.end(), by_local);
        std::vector<uint32_t> local(n), pos(n);
        for (size_t q = 0; q < n; ++q) {
            local[q] = s.todo_local[order[q]];
            pos[q] = s.todo_pos[order[q]];
        }
        s.todo_local.swap(local);
        s.todo_pos.swap(pos);
        // list and host_out are sized for the whole chunk at upload.
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.list.get(), s.todo_local.data(), n * sizeof(uint32_t),
                                          cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaMemsetAsync(s.work.get(), 0, 2 * sizeof(uint32_t), st));
        const VitTargets tg{s.res.get(), s.off.get(), s.len.get(), s.ncj.get()};
        // Both kernels give every group of every warp of the grid its own copy
        // of a row (3 states x S words x a warp's 32 lanes per tile).
        auto scratch_words = [](unsigned grid, int block, int ntiles, int S) {
            return static_cast<size_t>(grid) * static_cast<size_t>(block / 32) * static_cast<size_t>(ntiles) * 3 *
                   static_cast<size_t>(S) * 32;
        };
        WARPDP_CUDA_CHECK(cudaEventRecord(s.ev_start->get(), st));
        if (s.n16 > 0) {
            const Vit16Variant& v = *plan16.v;
            upload_async(s.trans16, t16.trans, st);
            upload_async(s.emit16, t16.emit, st);
            upload_async(s.scan16, t16.scan, st);
            const auto kernel = plan16.ntiles > 1 ? v.kernel_tiled : v.kernel;
            const unsigned grid =
                grid_for(s, reinterpret_cast<const void*>(kernel), kVit16Block, v.G, s.n16, variant16_name(v));
            Vit16Params p;
            p.tg = tg;
            p.list = s.list.get();
            p.n = static_cast<uint32_t>(s.n16);
            p.out = s.out.get();
            p.trans = s.trans16.get();
            p.emit = s.emit16.get();
            p.scan = s.scan16.get();
            p.ntiles = plan16.ntiles;
            p.work = s.work.get();
            p.K = p16.K;
            p.F = p16.F;
            if (plan16.ntiles > 1) {
                s.scratch16.reserve(scratch_words(grid, kVit16Block, plan16.ntiles, v.S));
                p.scratch = s.scratch16.get();
            }
            WARPDP_CUDA_CHECK_LAUNCH((kernel<<<grid, kVit16Block, 0, st>>>(p)));
        }
        if (n > s.n16) {
            const VitVariant& v = *plan.v;
            const size_t n32 = n - s.n16;
            upload_async(s.trans, trans, st);
            upload_async(s.emit, emit, st);
            const unsigned grid = grid_for(s, reinterpret_cast<const void*>(v.kernel), kVitBlock, v.G, n32, variant_name(v));
            VitParams p;
            p.tg = tg;
            p.list = s.list.get() + s.n16;
            p.n = static_cast<uint32_t>(n32);
            p.out = s.out.get() + s.n16;
            p.trans = s.trans.get();
            p.emit = s.emit.get();
            p.ntiles = plan.ntiles;
            p.work = s.work.get() + 1;
            if (plan.ntiles > 1) {
                s.scratch.reserve(scratch_words(grid, kVitBlock, plan.ntiles, v.S));
                p.scratch = s.scratch.get();
            }
            WARPDP_CUDA_CHECK_LAUNCH((v.kernel<<<grid, kVitBlock, 0, st>>>(p)));
        }
        WARPDP_CUDA_CHECK(cudaEventRecord(s.ev_end->get(), st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.host_out.get(), s.out.get(), n * sizeof(uint32_t),
                                          cudaMemcpyDeviceToHost, st));
    }

    template <typename T>
    static void upload_async(DeviceBuffer<T>& dst, const std::vector<T>& src, cudaStream_t st) {
        dst.reserve(src.size());
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(dst.get(), src.data(), src.size() * sizeof(T), cudaMemcpyHostToDevice, st));
    }

    std::vector<std::unique_ptr<Slot>> slots_;
    std::vector<uint32_t> slot_of_, local_of_;
    std::vector<uint64_t> lengths_;
    std::vector<uint32_t> codes_;  // bit c: the target holds code c (bit 31: some code >= 31)
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
    for (const auto& v : kVit16Variants) names.push_back(variant16_name(v));
    return names;
}

}  // namespace warpdp
