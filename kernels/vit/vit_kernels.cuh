// The Viterbi filter's int32 CUDA kernel (HMMER 3.3.2 semantics,
// docs/hmmer-filters.md §6.2), for every (model, target) pair the packed
// 16-bit kernel (vit16_kernels.cuh) may not take. Kernels only compute:
// device pointers, sizes and a parameter struct in, results out; vit_cuda.cu
// decides shapes and launches. Layout, why int32 cells are exact, the floors
// dropped and the D->D scan: docs/vit-cuda.md, "The int32 kernel".
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace warpdp::cuda {

inline constexpr int kVitBlock = 128;        // 4 warps
inline constexpr int kVitNegInf = -32768;
inline constexpr int kVitBFloor = -(1 << 20);  // a chained DD sum below this is -inf for any D

struct VitTargets {
    const uint8_t* res = nullptr;   // residues, back to back
    const uint64_t* off = nullptr;  // start of target i in res
    const uint32_t* len = nullptr;
    const int16_t* ncj = nullptr;   // NCJmove(L) per target (host logf, bit-exact)
};

struct VitParams {
    VitTargets tg;
    const uint32_t* list = nullptr;  // targets to score (indices into tg), in work order
    uint32_t n = 0;                  // entries in list
    uint32_t* out = nullptr;         // out[j] = raw result of list[j]
    const int4* trans = nullptr;     // [((tile*S + j)*2 + h)*G + t]: h=0 {BM, MM, IM, DM}, h=1 {MD, MI, II, DD}
    const uint32_t* emit = nullptr;  // [((x*ntiles + tile)*S/2 + jp)*G + t]: nodes 2jp | 2jp+1 << 16
    int ntiles = 1;
    int16_t* scratch = nullptr;      // per group: [tile][state 3][j][t], only when ntiles > 1
    uint32_t* work = nullptr;        // work counter, zeroed before the launch
};

__device__ __forceinline__ int lo16(uint32_t w) { return static_cast<int16_t>(w & 0xFFFFu); }
__device__ __forceinline__ int hi16(uint32_t w) { return static_cast<int16_t>(w >> 16); }

// One (a, b) max-plus map after another: x -> max(a2, max(a1, x + b1) + b2).
__device__ __forceinline__ void compose_after(int& a2, int& b2, int a1, int b1) {
    a2 = max(a2, a1 + b2);
    b2 = max(b1 + b2, kVitBFloor);
}

// The next work unit of a warp whose groups of G lanes each take one target
// of `list` (dynamic: units come from an atomic counter): the target of this
// lane's group, or valid = false past the end; `rows` is the warp's longest
// target, the rows the whole warp steps. false once the list is done.
struct VitUnit {
    uint32_t j = 0;           // position in the list (out[j] answers it)
    bool valid = false;
    const uint8_t* seq = nullptr;
    int L = 0, ncj = 0, rows = 0;
};

template <int G>
__device__ __forceinline__ bool vit_next_unit(uint32_t* work, const uint32_t* list, uint32_t n,
                                              const VitTargets& tg, int lane, VitUnit& u) {
    constexpr unsigned kFull = 0xFFFFFFFFu;
    constexpr int TPW = 32 / G;
    uint32_t unit = 0;
    if (lane == 0) unit = atomicAdd(work, 1u);
    unit = __shfl_sync(kFull, unit, 0);
    if (unit >= (n + TPW - 1) / TPW) return false;
    u = VitUnit{};
    u.j = unit * TPW + static_cast<uint32_t>(lane / G);
    u.valid = u.j < n;
    if (u.valid) {
        const uint32_t t = list[u.j];
        u.seq = tg.res + tg.off[t];
        u.L = static_cast<int>(tg.len[t]);
        u.ncj = tg.ncj[t];
    }
    u.rows = u.L;
#pragma unroll
    for (int o = 16; o >= 1; o >>= 1) u.rows = max(u.rows, __shfl_xor_sync(kFull, u.rows, o));
    return true;
}

template <int G, int S>
__global__ void __launch_bounds__(kVitBlock) vit_kernel(const VitParams p) {
    static_assert(S % 2 == 0 && S >= 2 && 32 % G == 0 && G >= 4, "unsupported Viterbi shape");
    constexpr unsigned kFull = 0xFFFFFFFFu;
    constexpr int TPW = 32 / G;  // targets per warp
    const int lane = static_cast<int>(threadIdx.x) & 31;
    const int t = lane % G;      // lane within the target's group
    const size_t warp_id = (static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const bool tiled = p.ntiles > 1;
    const size_t tile_words = static_cast<size_t>(3) * S * G;
    int16_t* scr = tiled ? p.scratch + (warp_id * TPW + static_cast<size_t>(lane / G)) * p.ntiles * tile_words
                         : nullptr;

    // The warp steps the rows of its longest target; a group past its own
    // end (or overflowed) keeps computing on code 0 but its xC/xJ/xB freeze.
    for (VitUnit u; vit_next_unit<G>(p.work, p.list, p.n, p.tg, lane, u);) {
        const uint32_t j = u.j;
        const bool valid = u.valid;
        const uint8_t* seq = u.seq;
        const int L = u.L, ncj = u.ncj, rows = u.rows;
        const int xN = 12000;
        int xB = xN + ncj, xC = kVitNegInf, xJ = kVitNegInf;

        int Mv[S], Iv[S], Dv[S];
#pragma unroll
        for (int s = 0; s < S; ++s) Mv[s] = Iv[s] = Dv[s] = kVitNegInf;
        if (tiled) {
            for (size_t q = static_cast<size_t>(t); q < p.ntiles * tile_words; q += G)
                scr[q] = static_cast<int16_t>(kVitNegInf);
            __syncwarp();
        }

        int4 Ta[S], Tb[S];  // this lane's transitions of the current tile (see VitParams::trans)
        bool overflow = false;
        for (int i = 0; i < rows; ++i) {
            const bool active = i < L && !overflow;
            if (!__any_sync(kFull, active)) break;
            const int x = active ? __ldg(seq + i) : 0;
            int xE = kVitNegInf;
            int cM = kVitNegInf, cI = kVitNegInf, cD = kVitNegInf;  // previous row, node before the tile
            int cE = kVitNegInf;                                    // D entering the tile's first node
            for (int tile = 0; tile < p.ntiles; ++tile) {
                int16_t* ts = tiled ? scr + static_cast<size_t>(tile) * tile_words : nullptr;
                if (tiled) {
#pragma unroll
                    for (int s = 0; s < S; ++s) {
                        Mv[s] = ts[(0 * S + s) * G + t];
                        Iv[s] = ts[(1 * S + s) * G + t];
                        Dv[s] = ts[(2 * S + s) * G + t];
                    }
                }
                // Diagonal inputs of node 0 of this lane: the previous lane's last node.
                int dM = __shfl_up_sync(kFull, Mv[S - 1], 1, G);
                int dI = __shfl_up_sync(kFull, Iv[S - 1], 1, G);
                int dD = __shfl_up_sync(kFull, Dv[S - 1], 1, G);
                if (t == 0) { dM = cM; dI = cI; dD = cD; }
                cM = __shfl_sync(kFull, Mv[S - 1], G - 1, G);
                cI = __shfl_sync(kFull, Iv[S - 1], G - 1, G);
                cD = __shfl_sync(kFull, Dv[S - 1], G - 1, G);

                if (tiled || i == 0) {
                    const int4* tr = p.trans + static_cast<size_t>(tile) * S * 2 * G + t;
#pragma unroll
                    for (int s = 0; s < S; ++s) {
                        Ta[s] = __ldg(tr + (2 * s) * G);
                        Tb[s] = __ldg(tr + (2 * s + 1) * G);
                    }
                }
                const uint32_t* em = p.emit + (static_cast<size_t>(x) * p.ntiles + tile) * (S / 2) * G + t;
                // M and I, highest node first so node s-1 still holds the previous row.
#pragma unroll
                for (int s = S - 1; s >= 0; --s) {
                    const uint32_t ew = __ldg(em + (s / 2) * G);
                    const int e = (s & 1) ? hi16(ew) : lo16(ew);
                    const int pM = s ? Mv[s - 1] : dM;
                    const int pI = s ? Iv[s - 1] : dI;
                    const int pD = s ? Dv[s - 1] : dD;
                    int v = max(xB + Ta[s].x, kVitNegInf);
                    v = __viaddmax_s32(pM, Ta[s].y, v);
                    v = __viaddmax_s32(pI, Ta[s].z, v);
                    v = __viaddmax_s32(pD, Ta[s].w, v);
                    const int nI = __viaddmax_s32(Iv[s], Tb[s].z, Mv[s] + Tb[s].y);
                    const int nM = v + e;  // unclamped: see "Exactness" above
                    Mv[s] = nM;
                    Iv[s] = nI;
                    xE = max(xE, nM);
                }
                // D: fold this lane's nodes into x -> max(a, x + b) (x = D entering node 0,
                // result = D leaving the last node), scan across the group, then write.
                int a = kVitNegInf, b = 0;
#pragma unroll
                for (int s = 0; s < S; ++s) {
                    a = __viaddmax_s32(a, Tb[s].w, Mv[s] + Tb[s].x);
                    b += Tb[s].w;  // >= S * -32768: no floor needed inside a lane
                }
#pragma unroll
                for (int o = 1; o < G; o <<= 1) {
                    const int ua = __shfl_up_sync(kFull, a, o, G);
                    const int ub = __shfl_up_sync(kFull, b, o, G);
                    if (t >= o) compose_after(a, b, ua, ub);
                }
                // Inclusive map of lanes 0..t applied to the D entering the tile.
                const int leave = max(a, cE + b);
                int din = __shfl_up_sync(kFull, leave, 1, G);
                if (t == 0) din = cE;
                cE = __shfl_sync(kFull, leave, G - 1, G);
                int d = max(din, kVitNegInf);
#pragma unroll
                for (int s = 0; s < S; ++s) {
                    Dv[s] = d;
                    d = __viaddmax_s32(d, Tb[s].w, Mv[s] + Tb[s].x);
                }
                if (tiled) {
#pragma unroll
                    for (int s = 0; s < S; ++s) {
                        ts[(0 * S + s) * G + t] = static_cast<int16_t>(max(Mv[s], kVitNegInf));
                        ts[(1 * S + s) * G + t] = static_cast<int16_t>(max(Iv[s], kVitNegInf));
                        ts[(2 * S + s) * G + t] = static_cast<int16_t>(max(Dv[s], kVitNegInf));
                    }
                }
            }
#pragma unroll
            for (int o = G / 2; o >= 1; o >>= 1) xE = max(xE, __shfl_xor_sync(kFull, xE, o));
            if (active) {
                if (xE >= 32767) {
                    overflow = true;
                } else {
                    xC = max(xC, xE - 500);
                    xJ = max(xJ, xE - 500);
                    xB = max(xJ, xN) + ncj;
                }
            }
        }
        uint32_t result;
        if (overflow) result = 0xFFFFFFFFu;
        else if (xC <= kVitNegInf) result = 0xFFFFFFFEu;
        else result = static_cast<uint32_t>(xC + 32768);
        if (valid && t == 0) p.out[j] = result;
        if (tiled) __syncwarp();
    }
}

}  // namespace warpdp::cuda
