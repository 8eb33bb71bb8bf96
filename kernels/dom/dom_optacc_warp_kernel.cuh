// The optimal-accuracy fill with one warp per envelope (docs/hmmer-filters.md
// §16.9), thread 8z + s doing sub-block s of SSE lane z's striped positions,
// as kernels/fwd/fwd_warp_kernel.cuh does for the Forward filter. A row's M
// and I cells depend only on the row before, so the eight threads of a lane
// compute their blocks side by side; the serial parts (the first D->D pass,
// the running max E) pass between blocks as exact summaries of each block,
// and the three later D->D passes carry a value that is either the lane's
// input or +0, so they run side by side too. Every value is the one
// dom_optimal_accuracy_cpu computes, by its operations in its order per cell.
// Rows live in shared memory (padded so the 32 threads touch 32 banks), with
// a byte of gates per (position, lane); each finished row goes to the OA
// matrix in DomMatrix's layout. Compiled for the host too, by
// tests/kernels/dom/test_dom_optacc_emulated.cpp.
#pragma once

#include <cstdint>

#include "kernels/dom/dom_optacc_device.cuh"

// Tiles unrolled on the device; the host emulation takes them as they are.
#if defined(__CUDACC__)
#define WARPDP_OA_UNROLL _Pragma("unroll")
#else
#define WARPDP_OA_UNROLL
#endif

namespace warpdp {

// Positions per thread P = ceil(Q / 8), padded to P' = 1 (mod 8) in shared
// memory: position q of lane z sits at ((q / P) * P' + q % P) * 4 + z.
__host__ __device__ inline int dom_oa_warp_P(int Q) { return (Q + 7) / 8; }
__host__ __device__ inline int dom_oa_warp_Pp(int Q) {
    const int P = dom_oa_warp_P(Q);
    return P + ((9 - P % 8) % 8);
}
__host__ __device__ inline int dom_oa_warp_slot(int q, int z, int P, int Pp) { return ((q / P) * Pp + q % P) * 4 + z; }

// A warp's shared memory, in floats, for models of at most Pp padded
// positions a thread: rows M, D, I (32 Pp floats each), the row's
// hand-offs (kDomOaHandoffs x 32 floats), the gates (32 Pp bytes).
constexpr int kDomOaHandoffs = 6;
__host__ __device__ inline uint32_t dom_oa_warp_region_floats(int Pp) {
    return static_cast<uint32_t>(3 * 32 * Pp + kDomOaHandoffs * 32 + 8 * Pp);
}

namespace dom_oa_warp {

// Hand-off arrays, [h * 32 + thread].
enum : int { kXfer = 0, kVal, kMaxM, kFlags, kMaxD, kNanD };
// How a block's first-pass D->D carry out follows from its carry in c
// (x = max(c, its first D)): a fixed value (a DD gate of the block is
// closed), x (one position), the block's own max m (a NaN among its other
// D's), or max(x, m).
enum : int { kFixed = 0, kX, kOwn, kMaxWith };

__device__ __forceinline__ bool is_nan(float v) { return v != v; }

}  // namespace dom_oa_warp

// The fill of jobs which[0..count), W = blockDim.x / 32 of them a block, each
// warp with `region` floats of shared memory (dom_oa_warp_region_floats of
// the launch's widest model).
//
// Why the summaries are exact: for max(a, b) = a > b ? a : b, the fold
// r -> max(...max(max(r, v1), v2)..., vn) equals m if some vi is NaN, else
// max(r, m), where m is the fold of v2..vn started from v1 (proved by
// induction on n; ties and signed zeros included). The first D->D pass
// through a block is that fold of its D's while its DD gates are open; a
// closed gate leaves +0, after which the carry no longer depends on what
// came in. In the later passes the carry is only gated, never maxed, so at
// position q it is the lane's input if every gate of the lane before q is
// open, else +0.
__global__ void __launch_bounds__(128) dom_oa_fill_warp_kernel(DomOaParams p, const uint32_t* which, uint32_t count,
                                                               uint32_t region) {
    using namespace dom_oa_device;
    using namespace dom_oa_warp;
    extern __shared__ float dom_oa_warp_smem[];
    constexpr unsigned kAll = 0xFFFFFFFFu;
    constexpr int kTile = 8;
    const unsigned W = blockDim.x / 32;
    const unsigned warp = threadIdx.x / 32;
    const uint64_t gi = static_cast<uint64_t>(blockIdx.x) * W + warp;
    if (gi >= count) return;  // whole warps leave together
    const uint32_t g = which[gi];
    const int t = static_cast<int>(threadIdx.x % 32), z = t / 8, s = t % 8;
    const DomOaJob job = p.jobs[g];
    const DomModelDesc md = p.models[job.model];
    const int Q = md.Q;
    const int P = dom_oa_warp_P(Q), Pp = dom_oa_warp_Pp(Q);
    const int span = 32 * Pp;
    float* const Mx = dom_oa_warp_smem + static_cast<uint64_t>(warp) * region;
    float* const Dx = Mx + span;
    float* const Ix = Dx + span;
    float* const H = Ix + span;
    uint8_t* const G = reinterpret_cast<uint8_t*>(H + kDomOaHandoffs * 32);  // bit k: transition k > 0
    const uint64_t rf = static_cast<uint64_t>(Q) * kRow;
    const float* const ppc = p.pp_cells + job.pp_cells + z;
    const float* const pps = p.pp_specials + job.pp_specials;
    float* const oc = p.ox_cells + job.ox_cells;
    float* const os = p.ox_specials + job.ox_specials;
    const DomSpecialOdds xo = job.odds;

    // Only whether a transition is positive matters (the fill's gates).
    const float* const tp = p.trans + md.trans;
    for (int a = t; a < Q * kFwdLanes; a += 32) {
        const int q = a / kFwdLanes, r = a % kFwdLanes;
        unsigned bits = 0;
        for (int k = 0; k < kFwdNumTrans; ++k)
            bits |= (__ldg(tp + (q * kFwdNumTrans + k) * kFwdLanes + r) > 0.0f ? 1u : 0u) << k;
        G[dom_oa_warp_slot(q, r, P, Pp)] = static_cast<uint8_t>(bits);
    }
    const int s_last = (Q - 1) / P;              // the last block holding positions
    const int q0 = s * P;                        // my positions: q0 .. q0 + n - 1
    const int n = q0 < Q ? (Q - q0 < P ? Q - q0 : P) : 0;
    const int base = s * Pp * 4 + z;             // slot of q0; q0 + k at base + 4k
    const int prev_end = dom_oa_warp_slot(Q - 1, z > 0 ? z - 1 : 0, P, Pp);
    __syncwarp(kAll);
    int f = n;  // my first position whose DD gate is closed (n: none)
    for (int k = n - 1; k >= 0; --k)
        if (!((G[base + 4 * k] >> kFDD) & 1u)) f = k;
    H[kFlags * 32 + t] = f == n ? 1.0f : 0.0f;
    for (int k = 0; k < n; ++k) Mx[base + 4 * k] = Dx[base + 4 * k] = Ix[base + 4 * k] = kNegInf;
    for (int a = t; a < static_cast<int>(rf); a += 32) oc[a] = kNegInf;
    __syncwarp(kAll);
    bool open_before = true;  // every DD gate of lane z before q0
    for (int b = 0; b < s; ++b) open_before = open_before && H[kFlags * 32 + z * 8 + b] != 0.0f;
    unsigned lane_open = 0;  // bit r: every DD gate of lane r
    for (int r = 0; r < kFwdLanes; ++r) {
        bool all = true;
        for (int b = 0; b < 8; ++b) all = all && H[kFlags * 32 + r * 8 + b] != 0.0f;
        lane_open |= (all ? 1u : 0u) << r;
    }
    DomOaSpecials sp;
    sp.start(t == 0 ? os : nullptr);

    for (uint64_t i = 1; i <= job.L; ++i) {
        // The previous row's values at the position before my first (lane
        // z - 1's last for q = 0, -inf into lane 0), read before anyone
        // overwrites them.
        float mpv = kNegInf, dpv = kNegInf, ipv = kNegInf;
        if (n > 0 && (s > 0 || z > 0)) {
            const int b = s > 0 ? base - 4 * (Pp - P + 1) : prev_end;
            mpv = Mx[b];
            dpv = Dx[b];
            ipv = Ix[b];
        }
        __syncwarp(kAll);
        const float* const pr = ppc + i * rf + static_cast<uint64_t>(q0) * kRow;
        // M, I and the M->D values of my positions, in tiles: every load of
        // a tile first, then the arithmetic. Beside them: the max of my M's,
        // of my D's after the first (the first comes from the block before),
        // and the first pass's carry after my first closed DD gate.
        float dcv = kNegInf, maxM = kNegInf, maxD = kNegInf, tail = 0.0f;
        bool nanM = false, nanD = false;
        for (int k0 = 0; k0 < n; k0 += kTile) {
            float pm[kTile], pd[kTile], pi[kTile], em[kTile], ei[kTile];
            unsigned gt[kTile];
WARPDP_OA_UNROLL
            for (int u = 0; u < kTile; ++u) {
                const int k = k0 + u;
                if (k < n) {
                    const int a = base + 4 * k;
                    pm[u] = Mx[a];
                    pd[u] = Dx[a];
                    pi[u] = Ix[a];
                    gt[u] = G[a];
                    em[u] = __ldg(pr + k * kRow + kDomM * kFwdLanes);
                    ei[u] = __ldg(pr + k * kRow + kDomI * kFwdLanes);
                }
            }
WARPDP_OA_UNROLL
            for (int u = 0; u < kTile; ++u) {
                const int k = k0 + u;
                if (k >= n) break;
                const int a = base + 4 * k;
                const unsigned b = gt[u];
                auto open = [b](int slot) { return ((b >> slot) & 1u) != 0; };
                float sv = open(kFBM) ? sp.xB : 0.0f;
                sv = vmax(sv, open(kFMM) ? mpv : 0.0f);
                sv = vmax(sv, open(kFIM) ? ipv : 0.0f);
                sv = vmax(sv, open(kFDM) ? dpv : 0.0f);
                sv = add_ieee(sv, em[u]);
                Mx[a] = sv;
                if (k == 0) {
                    maxM = sv;
                } else {
                    maxM = vmax(maxM, sv);
                    Dx[a] = dcv;
                    maxD = k == 1 ? dcv : vmax(maxD, dcv);
                    nanD = nanD || is_nan(dcv);
                    if (k > f) tail = open(kFDD) ? vmax(tail, dcv) : 0.0f;
                }
                nanM = nanM || is_nan(sv);
                dcv = open(kFMD) ? sv : 0.0f;
                Ix[a] = add_ieee(vmax(open(kFMI) ? pm[u] : 0.0f, open(kFII) ? pi[u] : 0.0f), ei[u]);
                mpv = pm[u];
                dpv = pd[u];
                ipv = pi[u];
            }
        }
        const int kind = f < n ? kFixed : n == 1 ? kX : nanD ? kOwn : kMaxWith;
        H[kXfer * 32 + t] = dcv;  // M->D into the next block's first D
        H[kVal * 32 + t] = kind == kFixed ? tail : maxD;
        H[kMaxM * 32 + t] = maxM;
        H[kFlags * 32 + t] = static_cast<float>(kind + (nanM ? 4 : 0));
        __syncwarp(kAll);

        // The first pass's carry through the blocks, lane by lane up to
        // mine: my block's carry in, and each lane's carries into passes
        // 1..3 (the lane before's last carry of the pass before, -inf into
        // lane 0).
        float c_in = kNegInf, c1 = kNegInf, c2 = kNegInf, c3 = kNegInf;
        for (int r = 0; r <= z; ++r) {
            float c = r == 0 ? kNegInf : H[kXfer * 32 + (r - 1) * 8 + s_last];
            if (r == z) {
                const bool ob = open_before;
                c1 = ob ? c1 : 0.0f;
                c2 = ob ? c2 : 0.0f;
                c3 = ob ? c3 : 0.0f;
            }
            for (int b = 0; b <= s_last; ++b) {
                if (r == z && b == s) c_in = c;
                const int h = r * 8 + b;
                const int kb = static_cast<int>(H[kFlags * 32 + h]) & 3;
                const float d0 = b == 0 ? kNegInf : H[kXfer * 32 + h - 1];
                const float x = vmax(c, d0);
                const float v = H[kVal * 32 + h];
                c = kb == kFixed || kb == kOwn ? v : kb == kX ? x : vmax(x, v);
            }
            if (r < z) {
                const bool all = ((lane_open >> r) & 1u) != 0;
                c3 = all ? c2 : 0.0f;
                c2 = all ? c1 : 0.0f;
                c1 = c;
            }
        }
        // All four D->D passes over my positions; at each position the
        // passes' updates come in pass order, and none depends on another
        // position's update of the same pass.
        maxD = kNegInf;
        nanD = false;
        {
            float c = c_in;
            const float d0 = s == 0 ? kNegInf : H[kXfer * 32 + t - 1];
            for (int k0 = 0; k0 < n; k0 += kTile) {
                float d[kTile];
                unsigned gt[kTile];
WARPDP_OA_UNROLL
                for (int u = 0; u < kTile; ++u) {
                    const int k = k0 + u;
                    if (k < n) {
                        d[u] = k == 0 ? d0 : Dx[base + 4 * k];
                        gt[u] = G[base + 4 * k];
                    }
                }
WARPDP_OA_UNROLL
                for (int u = 0; u < kTile; ++u) {
                    const int k = k0 + u;
                    if (k >= n) break;
                    const bool dd = ((gt[u] >> kFDD) & 1u) != 0;
                    float v = vmax(c, d[u]);
                    c = dd ? v : 0.0f;
                    v = vmax(c1, v);
                    c1 = dd ? c1 : 0.0f;
                    v = vmax(c2, v);
                    c2 = dd ? c2 : 0.0f;
                    v = vmax(c3, v);
                    c3 = dd ? c3 : 0.0f;
                    Dx[base + 4 * k] = v;
                    maxD = k == 0 ? v : vmax(maxD, v);
                    nanD = nanD || is_nan(v);
                }
            }
        }
        H[kMaxD * 32 + t] = maxD;
        H[kNanD * 32 + t] = nanD ? 1.0f : 0.0f;
        __syncwarp(kAll);

        // E: each lane's running max over its M's, then its D's, in
        // position order; then max(max(e0, e1), max(e2, e3)).
        float e[kFwdLanes];
WARPDP_OA_UNROLL
        for (int r = 0; r < kFwdLanes; ++r) {
            float x = kNegInf;
            for (int b = 0; b <= s_last; ++b) {
                const float m = H[kMaxM * 32 + r * 8 + b];
                x = static_cast<int>(H[kFlags * 32 + r * 8 + b]) >= 4 ? m : vmax(x, m);
            }
            for (int b = 0; b <= s_last; ++b) {
                const float m = H[kMaxD * 32 + r * 8 + b];
                x = H[kNanD * 32 + r * 8 + b] != 0.0f ? m : vmax(x, m);
            }
            e[r] = x;
        }
        const float E = vmax(vmax(e[0], e[1]), vmax(e[2], e[3]));

        sp.row(xo, pps + i * kDomSpecials, E, t == 0 ? os + i * kDomSpecials : nullptr);
        // The finished row to the OA matrix, consecutive threads on
        // consecutive floats.
        float* const row = oc + i * rf;
        for (int a = t; a < static_cast<int>(rf); a += 32) {
            const int q = a / kRow, cell = (a / kFwdLanes) % kDomCells, r = a % kFwdLanes;
            const float* const src = cell == kDomM ? Mx : cell == kDomD ? Dx : Ix;
            row[a] = src[dom_oa_warp_slot(q, r, P, Pp)];
        }
    }
    if (t == 0) p.oasc[g] = sp.xC;
}

}  // namespace warpdp
