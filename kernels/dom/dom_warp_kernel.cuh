// The post-filter Forward, Backward and posterior decoding with one warp a
// job (docs/hmmer-filters.md §16.8, "Warp form"): thread 8z + s does
// sub-block s of SSE lane z's striped positions, as the Forward filter's
// kernels/fwd/fwd_warp_kernel.cuh does. A row's M, I (and, in Backward,
// M->D) values depend only on the row before, so the eight threads of a
// lane compute their blocks side by side; the ordered parts (the lanes'
// sums, the D->D chains) then run through the blocks in position order,
// handing their carries from thread to thread, each the operation
// dom_kernels.cuh performs, in its order. The job's current row lives in
// shared memory (padded so the 32 threads touch 32 banks); a full job's
// finished rows go to its matrices in DomMatrix's layout, and decoding then
// runs over whole rows, the warp's threads on consecutive floats. Compiled
// for the host too, by tests/kernels/dom/test_dom_emulated.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "kernels/dom/dom_kernels.cuh"

#if defined(__CUDACC__)
#define WARPDP_DOM_WARP_UNROLL _Pragma("unroll")
#else
#define WARPDP_DOM_WARP_UNROLL
#endif

namespace warpdp {

// Positions a thread P = ceil(Q / 8), padded to an odd P' in shared memory:
// position q of lane z sits at ((q / P) * P' + q % P) * 4 + z, so the 32
// threads' k-th positions fall in 32 different banks.
__host__ __device__ inline int dom_warp_P(int Q) { return (Q + 7) / 8; }
__host__ __device__ inline int dom_warp_Pp(int Q) { return dom_warp_P(Q) | 1; }
__host__ __device__ inline int dom_warp_slot(int q, int z, int P, int Pp) { return ((q / P) * Pp + q % P) * 4 + z; }
// A warp's shared memory in floats: rows M, D, I and a scratch row, 32 P' each.
__host__ __device__ inline uint32_t dom_warp_region_floats(int Q) {
    return 4u * 32u * static_cast<uint32_t>(dom_warp_Pp(Q));
}

// One launch of a batch under the warp form: jobs order[first, first +
// count), `warps` a block with `region` floats of shared memory each, or
// (warps 0) four threads a job in dom_kernel.
struct DomWarpLaunch {
    uint32_t first = 0, count = 0;
    unsigned warps = 0;
    uint32_t region = 0;
};
inline constexpr uint32_t kDomWarpSmemBytes = 48u << 10;  // a block's, without opting in to more

// Regroups a batch's order (costliest first) into launches: jobs whose
// model's warp region fits four times into a block's shared memory, then
// twice, then once (wider models are rare; fewer warps a block keep the
// narrow ones' occupancy), then the four-thread kernel; each launch keeps
// its jobs costliest first. Q[m]: model m's stripe positions.
inline std::vector<DomWarpLaunch> dom_warp_launches(std::vector<uint32_t>& order, std::span<const DomJobDesc> desc,
                                                    std::span<const int> Q) {
    const auto warps_of = [&](uint32_t j) -> unsigned {
        const uint32_t bytes = dom_warp_region_floats(Q[desc[j].model]) * 4u;
        for (unsigned w : {4u, 2u, 1u})
            if (w * bytes <= kDomWarpSmemBytes) return w;
        return 0;
    };
    std::vector<uint32_t> out;
    out.reserve(order.size());
    std::vector<DomWarpLaunch> launches;
    for (unsigned w : {4u, 2u, 1u, 0u}) {
        DomWarpLaunch l;
        l.first = static_cast<uint32_t>(out.size());
        l.warps = w;
        for (uint32_t j : order)
            if (warps_of(j) == w) {
                out.push_back(j);
                l.region = std::max(l.region, dom_warp_region_floats(Q[desc[j].model]));
            }
        l.count = static_cast<uint32_t>(out.size()) - l.first;
        if (l.count) launches.push_back(l);
    }
    order = std::move(out);
    return launches;
}

namespace dom_warp {

using namespace dom_device;
constexpr unsigned kAll = 0xFFFFFFFFu;
constexpr int kTile = 8;

// One thread's view of its job: its lane z, its block s of positions
// q0 .. q0 + n - 1 (slots base + 4k), and the row arrays.
struct View {
    int t, z, s, M, Q, P, Pp, q0, n, base, s_last;
    uint64_t R;  // floats of a row of cells in DomMatrix's layout
    const float* trans;
    const float* emit;
    float *Mx, *Dx, *Ix, *X;

    __device__ float tr(int q, int lane, int k) const { return __ldg(trans + (q * 8 + k) * 4 + lane); }
    __device__ float em(uint8_t x, int q, int lane) const {
        return __ldg(emit + (static_cast<uint64_t>(x) * Q + q) * 4 + lane);
    }
    __device__ int slot(int q, int lane) const { return dom_warp_slot(q, lane, P, Pp); }
    // The finished row to a matrix row in DomMatrix's layout.
    __device__ void copy_row(float* row) const {
#if defined(__CUDACC__)
#pragma unroll 4
#endif
        for (uint64_t a = static_cast<uint64_t>(t); a < R; a += 32) {
            const int q = static_cast<int>(a / 12), c = static_cast<int>(a / 4) % 3, r = static_cast<int>(a % 4);
            const float* const src = c == kM ? Mx : c == kD ? Dx : Ix;
            row[a] = src[slot(q, r)];
        }
    }
    __device__ void rescale(float scale) const {
        const float r = recip_dbl(scale);
        for (int k = 0; k < n; ++k) {
            const int a = base + 4 * k;
            Mx[a] = mul(Mx[a], r);
            Dx[a] = mul(Dx[a], r);
            Ix[a] = mul(Ix[a], r);
        }
    }
};

// dom_forward_cpu; F: row 0 of a full job's Forward cells (null: a parser).
__device__ __forceinline__ void forward(const View& v, const DomJobDesc& jd, const uint8_t* dsq, float* F, float* fx) {
    const int z = v.z, s = v.s, n = v.n, base = v.base, s_last = v.s_last;
    const bool w = v.t == 0;
    for (int k = 0; k < n; ++k) v.Mx[base + 4 * k] = v.Dx[base + 4 * k] = v.Ix[base + 4 * k] = 0.0f;
    if (F)
        for (uint64_t a = static_cast<uint64_t>(v.t); a < v.R; a += 32) F[a] = 0.0f;
    float xE = 0.0f, xN = 1.0f, xJ = 0.0f, xB = jd.n_move, xC = 0.0f;
    store_specials(fx, w, xE, xN, xJ, xB, xC, 1.0f);
    const int zp = z > 0 ? z - 1 : 0;
    const int prev_end = v.slot(v.Q - 1, zp);   // lane z-1's last position
    const int last_of_prev_lane = zp * 8 + s_last;  // the thread holding it
    __syncwarp(kAll);
    for (uint64_t i = 1; i <= jd.L; ++i) {
        const uint8_t x = dsq[i - 1];
        // The previous row at the position before my first (lane z-1's last
        // for q = 0; 0 into lane 0), read before anyone overwrites it.
        float mpv = 0.0f, dpv = 0.0f, ipv = 0.0f;
        if (n > 0 && (s > 0 || z > 0)) {
            const int b = s > 0 ? base - 4 * (v.Pp - v.P + 1) : prev_end;
            mpv = v.Mx[b];
            dpv = v.Dx[b];
            ipv = v.Ix[b];
        }
        __syncwarp(kAll);
        float dcv = 0.0f;
        for (int k0 = 0; k0 < n; k0 += kTile) {
            float pm[kTile], pd[kTile], pi[kTile], e[kTile];
WARPDP_DOM_WARP_UNROLL
            for (int u = 0; u < kTile; ++u)
                if (k0 + u < n) {
                    const int a = base + 4 * (k0 + u);
                    pm[u] = v.Mx[a];
                    pd[u] = v.Dx[a];
                    pi[u] = v.Ix[a];
                    e[u] = v.em(x, v.q0 + k0 + u, z);
                }
WARPDP_DOM_WARP_UNROLL
            for (int u = 0; u < kTile; ++u) {
                if (k0 + u >= n) break;
                const int a = base + 4 * (k0 + u), q = v.q0 + k0 + u;
                float sv = mul(xB, v.tr(q, z, tBM));
                sv = add(sv, mul(mpv, v.tr(q, z, tMM)));
                sv = add(sv, mul(ipv, v.tr(q, z, tIM)));
                sv = add(sv, mul(dpv, v.tr(q, z, tDM)));
                sv = mul(sv, e[u]);
                v.Mx[a] = sv;
                v.Dx[a] = dcv;
                dcv = mul(sv, v.tr(q, z, tMD));
                v.Ix[a] = add(mul(pm[u], v.tr(q, z, tMI)), mul(pi[u], v.tr(q, z, tII)));
                mpv = pm[u];
                dpv = pd[u];
                ipv = pi[u];
            }
        }
        // M->D into my first position from the block before (lane starts: 0).
        const float from = __shfl_up_sync(kAll, dcv, 1);
        if (s > 0 && n > 0) v.Dx[base] = from;
        const float row_end = __shfl_sync(kAll, dcv, last_of_prev_lane);
        // The lane's M sum and the first D->D pass, block by block.
        float acc = 0.0f, c = (s == 0 && z > 0) ? row_end : 0.0f;
        for (int step = 0; step <= s_last; ++step) {
            if (s == step)
                for (int k0 = 0; k0 < n; k0 += kTile) {
                    // (a tile's loads first, so the chain waits on none)
                    float m[kTile], d[kTile], tdd[kTile];
WARPDP_DOM_WARP_UNROLL
                    for (int u = 0; u < kTile; ++u)
                        if (k0 + u < n) {
                            m[u] = v.Mx[base + 4 * (k0 + u)];
                            d[u] = v.Dx[base + 4 * (k0 + u)];
                            tdd[u] = v.tr(v.q0 + k0 + u, z, tDD);
                        }
WARPDP_DOM_WARP_UNROLL
                    for (int u = 0; u < kTile; ++u) {
                        if (k0 + u >= n) break;
                        acc = add(acc, m[u]);
                        d[u] = add(c, d[u]);
                        c = mul(d[u], tdd[u]);
                    }
WARPDP_DOM_WARP_UNROLL
                    for (int u = 0; u < kTile; ++u)
                        if (k0 + u < n) v.Dx[base + 4 * (k0 + u)] = d[u];
                }
            const float acc_in = __shfl_up_sync(kAll, acc, 1), c_in = __shfl_up_sync(kAll, c, 1);
            if (s == step + 1) {
                acc = acc_in;
                c = c_in;
            }
        }
        const float xEm = __shfl_sync(kAll, acc, z * 8 + s_last);
        float c_end = __shfl_sync(kAll, c, last_of_prev_lane);
        // The later passes carry only the extensions; each sums its D's onto
        // the M sum in position order, so the last pass run leaves E's lane sum.
        float e_lane = 0.0f;
        for (int pass = 1; pass < 4; ++pass) {
            c = (s == 0 && z > 0) ? c_end : 0.0f;
            float sum = s == 0 ? xEm : 0.0f;
            bool changed = false;
            for (int step = 0; step <= s_last; ++step) {
                if (s == step)
                    for (int k0 = 0; k0 < n; k0 += kTile) {
                        float d[kTile], tdd[kTile];
WARPDP_DOM_WARP_UNROLL
                        for (int u = 0; u < kTile; ++u)
                            if (k0 + u < n) {
                                d[u] = v.Dx[base + 4 * (k0 + u)];
                                tdd[u] = v.tr(v.q0 + k0 + u, z, tDD);
                            }
WARPDP_DOM_WARP_UNROLL
                        for (int u = 0; u < kTile; ++u) {
                            if (k0 + u >= n) break;
                            const float nd = add(c, d[u]);
                            changed |= nd > d[u];
                            d[u] = nd;
                            sum = add(nd, sum);
                            c = mul(c, tdd[u]);
                        }
WARPDP_DOM_WARP_UNROLL
                        for (int u = 0; u < kTile; ++u)
                            if (k0 + u < n) v.Dx[base + 4 * (k0 + u)] = d[u];
                    }
                const float sum_in = __shfl_up_sync(kAll, sum, 1), c_in = __shfl_up_sync(kAll, c, 1);
                if (s == step + 1) {
                    sum = sum_in;
                    c = c_in;
                }
            }
            e_lane = sum;
            c_end = __shfl_sync(kAll, c, last_of_prev_lane);
            if (!__any_sync(kAll, changed) && v.M >= 100) break;
        }
        const float e0 = __shfl_sync(kAll, e_lane, s_last), e1 = __shfl_sync(kAll, e_lane, 8 + s_last);
        const float e2 = __shfl_sync(kAll, e_lane, 16 + s_last), e3 = __shfl_sync(kAll, e_lane, 24 + s_last);
        xE = add(add(e0, e1), add(e2, e3));
        forward_specials(jd, xE, xN, xJ, xB, xC);
        float scale = 1.0f;
        if (xE > 1.0e4f) {
            divide_specials(xE, xN, xJ, xB, xC);
            v.rescale(xE);
            scale = xE;
            xE = 1.0f;
        }
        store_specials(fx + i * kX, w, xE, xN, xJ, xB, xC, scale);
        __syncwarp(kAll);  // the row complete before it is copied or read as the previous one
        if (F) v.copy_row(F + i * v.R);
    }
}

// A lane's ordered chain down its positions (Q-1 to 0), block by block from
// s_last to 0: block(c) runs my positions from last to first from carry c
// and returns the carry on. The lane's first block starts from c_in; the
// result is the carry after position 0 on thread z*8 (elsewhere, my own).
template <class Block>
__device__ __forceinline__ float chain_down(const View& v, float c_in, Block block) {
    float c = v.s == v.s_last ? c_in : 0.0f;
    for (int step = v.s_last; step >= 0; --step) {
        if (v.s == step) c = block(c);
        const float from = __shfl_down_sync(kAll, c, 1);
        if (v.s == step - 1) c = from;
    }
    return c;
}

// My block's positions from last to first, in tiles whose loads all come
// before their arithmetic (so the chain waits on no load), for one of
// Backward's D->D passes from carry c. The first pass (first): each D plus
// its extension (plus xE where with_e), the carry the new D, dlast the
// last extension; a later pass: the carry extended and added in. Returns
// the carry on.
__device__ __forceinline__ float dd_down(const View& v, float c, bool first, bool with_e, float xE, float& dlast) {
    for (int k0 = v.n - 1; k0 >= 0; k0 -= kTile) {
        float d[kTile] = {}, tdd[kTile] = {};
WARPDP_DOM_WARP_UNROLL
        for (int u = 0; u < kTile; ++u)
            if (k0 - u >= 0) {
                d[u] = v.Dx[v.base + 4 * (k0 - u)];
                tdd[u] = v.tr(v.q0 + k0 - u, v.z, tDD);
            }
WARPDP_DOM_WARP_UNROLL
        for (int u = 0; u < kTile; ++u) {
            if (k0 - u < 0) break;
            if (first) {
                dlast = mul(c, tdd[u]);
                d[u] = add(d[u], with_e ? add(dlast, xE) : dlast);
                c = d[u];
            } else {
                c = mul(c, tdd[u]);
                d[u] = add(d[u], c);
            }
        }
WARPDP_DOM_WARP_UNROLL
        for (int u = 0; u < kTile; ++u)
            if (k0 - u >= 0) v.Dx[v.base + 4 * (k0 - u)] = d[u];
    }
    return c;
}

// The lane's B sum over my block's terms (the scratch row), last first.
__device__ __forceinline__ float b_sum_down(const View& v, float acc) {
    for (int k0 = v.n - 1; k0 >= 0; k0 -= kTile) {
        float x[kTile] = {};
WARPDP_DOM_WARP_UNROLL
        for (int u = 0; u < kTile; ++u)
            if (k0 - u >= 0) x[u] = v.X[v.base + 4 * (k0 - u)];
WARPDP_DOM_WARP_UNROLL
        for (int u = 0; u < kTile; ++u) {
            if (k0 - u < 0) break;
            acc = add(acc, x[u]);
        }
    }
    return acc;
}

// Backward's D->D passes over a row, D updated in place: the first from
// carry `first_in` into lane z's last position (each D plus its extension,
// plus xE where with_e: every row but L), then three carrying only
// extensions, each lane's from the lane after's last extension.
__device__ __forceinline__ void backward_dd(const View& v, float first_in, bool with_e, float xE) {
    const int z = v.z;
    const int next_head = (z < 3 ? z + 1 : 0) * 8;  // the thread holding lane z+1's position 0
    float dlast = 0.0f;
    chain_down(v, z < 3 ? first_in : 0.0f, [&](float c) { return dd_down(v, c, true, with_e, xE, dlast); });
    for (int pass = 1; pass < 4; ++pass) {
        const float in = __shfl_sync(kAll, dlast, next_head);
        float unused = 0.0f;
        dlast = chain_down(v, z < 3 ? in : 0.0f, [&](float c) { return dd_down(v, c, false, false, xE, unused); });
    }
}

// dom_backward_cpu; Pm: row 0 of a full job's Backward cells (null: a
// parser); fx: the Forward specials (its scale factors). Returns whether
// Backward took its own factors.
__device__ __forceinline__ bool backward(const View& v, const DomJobDesc& jd, const uint8_t* dsq, float* Pm, const float* fx,
                         float* bx) {
    const int z = v.z, s = v.s, n = v.n, base = v.base;
    const bool w = v.t == 0;
    const uint64_t L = jd.L;
    float xJ = 0.0f, xB = 0.0f, xN = 0.0f;
    float xC = jd.c_move;
    float xE = mul(xC, jd.e_move);
    // The position after my last: mine (s < s_last), else lane z+1's first
    // (none after lane 3).
    const bool last_block = s == v.s_last;
    const int zn = last_block ? z + 1 : z, qn = last_block ? 0 : v.q0 + n;
    const bool has_next = zn < 4;
    const int next_slot = has_next ? v.slot(qn, zn) : 0;

    // Row L: every M and D start at xE (so the lane before's value that
    // HMMER shifts in is xE, 0 into lane 3), then the D->D passes and M->D.
    for (int k = 0; k < n; ++k) {
        const int a = base + 4 * k;
        v.Mx[a] = xE;
        v.Dx[a] = xE;
        v.Ix[a] = 0.0f;
    }
    __syncwarp(kAll);
    backward_dd(v, xE, false, xE);
    __syncwarp(kAll);
    {
        float dcv = has_next ? v.Dx[next_slot] : 0.0f;
        __syncwarp(kAll);
        for (int k = n - 1; k >= 0; --k) {
            const int a = base + 4 * k;
            v.Mx[a] = add(v.Mx[a], mul(dcv, v.tr(v.q0 + k, z, tMD)));
            dcv = v.Dx[a];
        }
    }
    {
        const float scale = fx[L * kX + kScale];
        if (scale > 1.0f) {
            xE = div(xE, scale);
            divide_specials(scale, xN, xJ, xB, xC);
            v.rescale(scale);
        }
        store_specials(bx + L * kX, w, xE, xN, xJ, xB, xC, scale);
    }
    __syncwarp(kAll);
    if (Pm) v.copy_row(Pm + L * v.R);

    bool own = false;
    for (uint64_t i = L - 1; i >= 1; --i) {
        const uint8_t x = dsq[i];  // residue i+1
        // The row after's M at the position after my last, with its odds.
        float mpv = 0.0f, tmmv = 0.0f, timv = 0.0f, tdmv = 0.0f;
        if (n > 0 && has_next) {
            mpv = mul(v.Mx[next_slot], v.em(x, qn, zn));
            tmmv = v.tr(qn, zn, tMM);
            timv = v.tr(qn, zn, tIM);
            tdmv = v.tr(qn, zn, tDM);
        }
        __syncwarp(kAll);
        // I, D (M->D), M from the row after; X: each position's B->M term.
        for (int k0 = n - 1; k0 >= 0; k0 -= kTile) {
            float nm[kTile], ni[kTile], e[kTile];
WARPDP_DOM_WARP_UNROLL
            for (int u = 0; u < kTile; ++u)
                if (k0 - u >= 0) {
                    const int a = base + 4 * (k0 - u);
                    nm[u] = v.Mx[a];
                    ni[u] = v.Ix[a];
                    e[u] = v.em(x, v.q0 + k0 - u, z);
                }
WARPDP_DOM_WARP_UNROLL
            for (int u = 0; u < kTile; ++u) {
                if (k0 - u < 0) continue;
                const int a = base + 4 * (k0 - u), q = v.q0 + k0 - u;
                v.Ix[a] = add(mul(ni[u], v.tr(q, z, tII)), mul(mpv, timv));
                v.Dx[a] = mul(mpv, tdmv);
                const float mcv = add(mul(ni[u], v.tr(q, z, tMI)), mul(mpv, tmmv));
                mpv = mul(nm[u], e[u]);
                v.Mx[a] = mcv;
                tdmv = v.tr(q, z, tDM);
                timv = v.tr(q, z, tIM);
                tmmv = v.tr(q, z, tMM);
                v.X[a] = mul(mpv, v.tr(q, z, tBM));
            }
        }
        __syncwarp(kAll);
        // Lane z+1's first D as the main loop left it (HMMER shifts it in
        // before its own pass changes it).
        const float d0_next = z < 3 && s == v.s_last ? v.Dx[v.slot(0, z + 1)] : 0.0f;
        // The lanes' B sums, down their positions, then (b0+b1)+(b2+b3).
        const float bsum = chain_down(v, 0.0f, [&](float acc) { return b_sum_down(v, acc); });
        const float b0 = __shfl_sync(kAll, bsum, 0), b1 = __shfl_sync(kAll, bsum, 8);
        const float b2 = __shfl_sync(kAll, bsum, 16), b3 = __shfl_sync(kAll, bsum, 24);
        xB = add(add(b0, b1), add(b2, b3));
        backward_specials(jd, xB, xE, xN, xJ, xC);
        // The first D->D pass, E folded in; then three passes of extensions.
        backward_dd(v, add(d0_next, xE), true, xE);
        __syncwarp(kAll);
        {
            // M: + E, then + M->D into the next position's final D.
            float dcv = has_next ? v.Dx[next_slot] : 0.0f;
            __syncwarp(kAll);
            for (int k = n - 1; k >= 0; --k) {
                const int a = base + 4 * k;
                v.Mx[a] = add(add(v.Mx[a], xE), mul(dcv, v.tr(v.q0 + k, z, tMD)));
                dcv = v.Dx[a];
            }
        }
        if (static_cast<double>(xB) > 1.0e16) own = true;
        const float scale = own ? (xB > 1.0e4f ? xB : 1.0f) : fx[i * kX + kScale];
        if (scale > 1.0f) {
            xE = div(xE, scale);
            divide_specials(scale, xN, xJ, xB, xC);
            v.rescale(scale);
        }
        store_specials(bx + i * kX, w, xE, xN, xJ, xB, xC, scale);
        __syncwarp(kAll);
        if (Pm) v.copy_row(Pm + i * v.R);
    }

    // Row 1's B->M terms with residue 1, summed up the positions.
    {
        const uint8_t x = dsq[0];
        float acc = 0.0f;
        for (int step = 0; step <= v.s_last; ++step) {
            if (s == step)
                for (int k = 0; k < n; ++k) {
                    const int q = v.q0 + k;
                    const float m = mul(mul(v.Mx[base + 4 * k], v.em(x, q, z)), v.tr(q, z, tBM));
                    acc = add(acc, m);
                }
            const float from = __shfl_up_sync(kAll, acc, 1);
            if (s == step + 1) acc = from;
        }
        const int last = v.s_last;
        const float b0 = __shfl_sync(kAll, acc, last), b1 = __shfl_sync(kAll, acc, 8 + last);
        const float b2 = __shfl_sync(kAll, acc, 16 + last), b3 = __shfl_sync(kAll, acc, 24 + last);
        xB = add(add(b0, b1), add(b2, b3));
        xN = add(mul(xB, jd.n_move), mul(xN, jd.n_loop));
        store_specials(bx, w, 0.0f, xN, 0.0f, xB, 0.0f, 1.0f);
    }
    return own;
}

// dom_decoding_cpu with pp = bck, over whole rows: F, P the Forward and
// Backward cells' row 0 (rows R apart), px the posterior specials.
// Returns whether the scale product overflowed.
__device__ __forceinline__ bool decode(const View& v, const DomJobDesc& jd, const float* F, float* P, const float* fx, const float* bx,
                       float* px, bool own) {
    const bool w = v.t == 0;
    float sp = recip_dbl(bx[kN]);
    for (uint64_t a = static_cast<uint64_t>(v.t); a < v.R; a += 32) P[a] = 0.0f;
    store_specials(px, w, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, bx[kScale]);
    for (uint64_t i = 1; i <= jd.L; ++i) {
        const float totr = mul(sp, fx[i * kX + kScale]);
        const float* const f = F + i * v.R;
        float* const b = P + i * v.R;
#if defined(__CUDACC__)
#pragma unroll 4
#endif
        for (uint64_t a = static_cast<uint64_t>(v.t); a < v.R; a += 32)
            b[a] = (a / 4) % 3 == kD ? 0.0f : mul(mul(f[a], b[a]), totr);
        sp = decode_specials(jd, fx, bx, px, i, sp, own, w);
    }
    return fabsf(sp) > 3.40282347e+38f;  // infinite
}

}  // namespace dom_warp

// Jobs p.order[0 .. p.n), W = blockDim.x / 32 a block, each warp with
// `region` floats of shared memory (dom_warp_region_floats of the launch's
// widest model).
__global__ void __launch_bounds__(128) dom_warp_kernel(DomParams p, uint32_t region) {
    using namespace dom_warp;
    extern __shared__ float dom_warp_smem[];
    const unsigned W = blockDim.x / 32, warp = threadIdx.x / 32;
    const uint64_t g = static_cast<uint64_t>(blockIdx.x) * W + warp;
    if (g >= p.n) return;  // whole warps leave together
    const uint32_t j = p.order[g];
    const DomJobDesc jd = p.jobs[j];
    const DomModelDesc md = p.models[jd.model];
    View v{};
    v.t = static_cast<int>(threadIdx.x % 32);
    v.z = v.t / 8;
    v.s = v.t % 8;
    v.M = md.M;
    v.Q = md.Q;
    v.P = dom_warp_P(md.Q);
    v.Pp = dom_warp_Pp(md.Q);
    v.q0 = v.s * v.P;
    v.n = v.q0 < v.Q ? (v.Q - v.q0 < v.P ? v.Q - v.q0 : v.P) : 0;
    v.base = v.s * v.Pp * 4 + v.z;
    v.s_last = (v.Q - 1) / v.P;
    v.R = static_cast<uint64_t>(md.Q) * 12;
    v.trans = p.trans + md.trans;
    v.emit = p.emit + md.emit;
    const int span = 32 * v.Pp;
    v.Mx = dom_warp_smem + static_cast<uint64_t>(warp) * region;
    v.Dx = v.Mx + span;
    v.Ix = v.Dx + span;
    v.X = v.Ix + span;
    const uint8_t* const dsq = p.res + jd.res_off;
    float* const fx = p.arena + jd.spec_off;
    float* const bx = fx + (jd.L + 1) * kX;
    uint32_t flags = 0;
    if (jd.full) {
        float* const F = p.arena + jd.mat_off;
        float* const P = F + (jd.L + 1) * (v.R + kX);
        forward(v, jd, dsq, F, fx);
        __syncwarp(kAll);
        const bool own = backward(v, jd, dsq, P, fx, bx);
        __syncwarp(kAll);
        if (own) flags |= kDomFlagOwnScales;
        if (decode(v, jd, F, P, fx, bx, P + (jd.L + 1) * v.R, own)) flags |= kDomFlagOverflow;
    } else {
        forward(v, jd, dsq, nullptr, fx);
        __syncwarp(kAll);
        if (backward(v, jd, dsq, nullptr, fx, bx)) flags |= kDomFlagOwnScales;
    }
    if (v.t == 0) p.flags[j] = flags;
}

}  // namespace warpdp
