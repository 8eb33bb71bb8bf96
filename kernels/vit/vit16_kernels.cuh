// The Viterbi filter in packed int16 with Hopper's DPX instructions, two
// nodes a 32-bit word, for the (model, target) pairs that
// core/hmmer/vit/vit_word16 proves safe: there the wrapping 16-bit adds
// compute HMMER's saturating filter exactly (values are HMMER's minus K, and
// F plays -inf). Other pairs take vit_kernel (vit_kernels.cuh); vit_cuda.cu
// chooses and launches. Layout, the D->D closure and its fallback, the
// running maximum: docs/vit-cuda.md, "The packed kernel" and "When wrapping
// int16 is exact".
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/hmmer/vit/vit_profile.hpp"
#include "kernels/vit/vit_kernels.cuh"

namespace warpdp::cuda {

inline constexpr int kVit16Block = 128;  // 4 warps
inline constexpr int kVit16ScanOff = -(1 << 28);  // scan term of a lane with no partner: never wins

struct Vit16Params {
    VitTargets tg;
    const uint32_t* list = nullptr;  // targets to score, in work order
    uint32_t n = 0;
    uint32_t* out = nullptr;         // out[j] = raw result of list[j]
    const uint4* trans = nullptr;    // [((tile*S + s)*2 + h)*G + t]: h=0 {BM, MM, IM, DM}, h=1 {MD, MI, II, DD}
    const uint4* emit = nullptr;     // [((x*ntiles + tile)*S4 + s/4)*G + t], component s%4 (S4 = ceil(S/4))
    const int2* scan = nullptr;      // [(tile*(log2 G + 1) + q)*G + t]: D->D sums (low, high), see vit_cuda.cu
    int ntiles = 1;
    uint32_t* scratch = nullptr;     // per group: [tile][state 3][s][t], only when ntiles > 1
    uint32_t* work = nullptr;        // work counter, zeroed before the launch
    int K = 0;                       // kernel value = HMMER value - K
    int F = 0;                       // plays -inf
};

__device__ __forceinline__ uint32_t pack16(int lo, int hi) {
    return __byte_perm(static_cast<uint32_t>(lo), static_cast<uint32_t>(hi), 0x5410);
}
__device__ __forceinline__ int lo16s(uint32_t w) { return static_cast<int16_t>(w & 0xFFFFu); }
__device__ __forceinline__ int hi16s(uint32_t w) { return static_cast<int>(w) >> 16; }

// log2 of a group width (4, 8, 16 or 32): the D scan's steps.
__host__ __device__ constexpr int vit16_log2(int G) { return G == 4 ? 2 : G == 8 ? 3 : G == 16 ? 4 : 5; }

// TB_L1: read {MD, MI, II, DD} from L1 every row instead of holding them in
// registers; pays where it saves the SM a block (measured: S = 12).
// TILED: the model is wider than one tile (p.ntiles > 1); the one-tile form
// keeps its row in registers and carries none of the tile bookkeeping.
template <int G, int S, bool TB_L1, bool TILED>
__global__ void __launch_bounds__(kVit16Block) vit16_kernel(const Vit16Params p) {
    static_assert(S >= 2 && 32 % G == 0 && G >= 4, "unsupported Viterbi shape");
    constexpr unsigned kFull = 0xFFFFFFFFu;
    constexpr int TPW = 32 / G;
    constexpr int LG = vit16_log2(G);
    const int lane = static_cast<int>(threadIdx.x) & 31;
    const int t = lane % G;
    const size_t warp_id = (static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const int ntiles = TILED ? p.ntiles : 1;
    const size_t tile_words = static_cast<size_t>(3) * S * G;
    uint32_t* scr = TILED ? p.scratch + (warp_id * TPW + static_cast<size_t>(lane / G)) * ntiles * tile_words
                          : nullptr;
    const uint32_t F2 = pack16(p.F, p.F);
    constexpr int S4 = (S + 3) / 4;  // emission words come four pairs a load
    const uint4* em_t = p.emit + t;
    const int high_mark = 12500 - p.K;  // R above this: xJ - 500 may beat xN
    const uint32_t high2 = pack16(high_mark, high_mark);

    // One tile: the model's words are the same for every target, so they are
    // loaded once (tiled models reload each tile's words every row).
    uint4 Ta[S], Tb[S];
    auto load_words = [&](int tile) {
        const uint4* tr = p.trans + static_cast<size_t>(tile) * S * 2 * G + t;
#pragma unroll
        for (int s = 0; s < S; ++s) {
            Ta[s] = __ldg(tr + (2 * s) * G);
            if (!TB_L1) Tb[s] = __ldg(tr + (2 * s + 1) * G);
        }
    };
    if constexpr (!TILED) load_words(0);

    for (VitUnit u; vit_next_unit<G>(p.work, p.list, p.n, p.tg, lane, u);) {
        const uint32_t j = u.j;
        const bool valid = u.valid;
        const uint8_t* seq = u.seq;
        const int L = u.L, ncj = u.ncj, rows = u.rows;
        const int xb_low = kVitBase + ncj - p.K;  // xB while no match cell passed high_mark
        uint32_t xB2 = pack16(xb_low, xb_low);

        uint32_t Mv[S], Iv[S], Dv[S];
#pragma unroll
        for (int s = 0; s < S; ++s) Mv[s] = Iv[s] = Dv[s] = F2;
        if constexpr (TILED) {
            for (size_t q = static_cast<size_t>(t); q < ntiles * tile_words; q += G) scr[q] = F2;
            __syncwarp();
        }
        uint32_t R = 0x80008000u, Rfin = R;
        for (int i = 0; i < rows; ++i) {
            const bool live = i < L;
            if (!__any_sync(kFull, live)) break;
            const int x = live ? __ldg(seq + i) : 0;
            uint32_t cM = F2, cI = F2, cD = F2;  // previous tile's last pair, row i-1 (high half = node before)
            int cE = p.F;                        // D entering the tile's first node, row i
            for (int tile = 0; tile < ntiles; ++tile) {
                uint32_t* ts = TILED ? scr + static_cast<size_t>(tile) * tile_words : nullptr;
                if constexpr (TILED) {
#pragma unroll
                    for (int s = 0; s < S; ++s) {
                        Mv[s] = ts[(0 * S + s) * G + t];
                        Iv[s] = ts[(1 * S + s) * G + t];
                        Dv[s] = ts[(2 * S + s) * G + t];
                    }
                }
                // Diagonal inputs of pair 0: the previous lane's last pair; lane 0 takes
                // the node before the tile (low) and the low half's last node (high).
                const uint32_t lastM = __shfl_sync(kFull, Mv[S - 1], G - 1, G);
                const uint32_t lastI = __shfl_sync(kFull, Iv[S - 1], G - 1, G);
                const uint32_t lastD = __shfl_sync(kFull, Dv[S - 1], G - 1, G);
                uint32_t dM = __shfl_up_sync(kFull, Mv[S - 1], 1, G);
                uint32_t dI = __shfl_up_sync(kFull, Iv[S - 1], 1, G);
                uint32_t dD = __shfl_up_sync(kFull, Dv[S - 1], 1, G);
                if (t == 0) {
                    dM = __byte_perm(cM, lastM, 0x5432);
                    dI = __byte_perm(cI, lastI, 0x5432);
                    dD = __byte_perm(cD, lastD, 0x5432);
                }
                cM = lastM;
                cI = lastI;
                cD = lastD;
                if constexpr (TILED) load_words(tile);
                if (TB_L1) {
                    const uint4* trb = p.trans + (static_cast<size_t>(tile) * S * 2 + 1) * G + t;
#pragma unroll
                    for (int s = 0; s < S; ++s) Tb[s] = __ldg(trb + (2 * s) * G);
                }
                // A warp's loads touch one line per group: four pairs a load keeps the
                // L1 wavefronts of narrow groups (G = 4, 8) below the arithmetic.
                const uint4* em = em_t + static_cast<uint32_t>(x * ntiles + tile) * (S4 * G);
                uint32_t ew[S4 * 4];
#pragma unroll
                for (int k = 0; k < S4; ++k) {
                    const uint4 q = __ldg(em + k * G);
                    ew[4 * k] = q.x;
                    ew[4 * k + 1] = q.y;
                    ew[4 * k + 2] = q.z;
                    ew[4 * k + 3] = q.w;
                }
                // M and I from the previous row, highest pair first so pair s-1 still holds it.
#pragma unroll
                for (int s = S - 1; s >= 0; --s) {
                    const uint32_t e = ew[s];
                    const uint32_t pM = s ? Mv[s - 1] : dM;
                    const uint32_t pI = s ? Iv[s - 1] : dI;
                    const uint32_t pD = s ? Dv[s - 1] : dD;
                    uint32_t v = __vadd2(pM, Ta[s].y);
                    v = __viaddmax_s16x2(pI, Ta[s].z, v);
                    v = __viaddmax_s16x2(pD, Ta[s].w, v);
                    v = __viaddmax_s16x2(xB2, Ta[s].x, v);
                    Iv[s] = __viaddmax_s16x2(Iv[s], Tb[s].z, __viaddmax_s16x2(Mv[s], Tb[s].y, F2));
                    Mv[s] = __viaddmax_s16x2(v, e, F2);
                }
#pragma unroll
                for (int s = 0; s + 1 < S; s += 2) R = __vimax3_s16x2(R, Mv[s], Mv[s + 1]);
                if (S & 1) R = __vimax3_s16x2(R, Mv[S - 1], Mv[S - 1]);

                // D: fold, enter from one lane back, second pass, check; the exact scan
                // only when some chain crosses a whole lane (docs/vit-cuda.md, "The packed kernel").
                uint32_t mmd[S];
                uint32_t a = F2;
#pragma unroll
                for (int s = 0; s < S; ++s) {
                    mmd[s] = __vadd2(Mv[s], Tb[s].x);
                    a = __viaddmax_s16x2(a, Tb[s].w, mmd[s]);
                }
                // D entering each lane's first pair, given what leaves each lane: the
                // previous lane's; lane 0 takes the tile's entering D (low) and the low
                // half's leaving D (high).
                auto enter = [&](uint32_t leaving) {
                    const uint32_t r = __shfl_sync(kFull, leaving, (t + G - 1) % G, G);
                    return t == 0 ? pack16(cE, lo16s(r)) : r;
                };
                auto second_pass = [&](uint32_t d) {
#pragma unroll
                    for (int s = 0; s < S; ++s) {
                        Dv[s] = d;
                        d = __viaddmax_s16x2(d, Tb[s].w, mmd[s]);
                    }
                    return d;
                };
                const uint32_t e1 = enter(a);
                uint32_t leave = second_pass(e1);
                if (__any_sync(kFull, enter(leave) != e1)) {
                    int alo = lo16s(a), ahi = hi16s(a);
                    const int2* bq = p.scan + static_cast<size_t>(tile) * (LG + 1) * G + t;
#pragma unroll
                    for (int q = 0; q < LG; ++q) {
                        const int2 b = __ldg(bq + q * G);
                        const int ulo = __shfl_up_sync(kFull, alo, 1 << q, G);
                        const int uhi = __shfl_up_sync(kFull, ahi, 1 << q, G);
                        alo = __viaddmax_s32(ulo, b.x, alo);
                        ahi = __viaddmax_s32(uhi, b.y, ahi);
                    }
                    const int2 b = __ldg(bq + LG * G);
                    const int leave_lo = __viaddmax_s32(cE, b.x, alo);
                    const int enter_hi = __shfl_sync(kFull, leave_lo, G - 1, G);
                    const int leave_hi = __viaddmax_s32(enter_hi, b.y, ahi);
                    int din_lo = __shfl_up_sync(kFull, leave_lo, 1, G);
                    int din_hi = __shfl_up_sync(kFull, leave_hi, 1, G);
                    if (t == 0) {
                        din_lo = cE;
                        din_hi = enter_hi;
                    }
                    leave = second_pass(pack16(din_lo, din_hi));  // both >= F: every fold starts at F
                }
                if constexpr (TILED) cE = hi16s(__shfl_sync(kFull, leave, G - 1, G));
                if constexpr (TILED) {
#pragma unroll
                    for (int s = 0; s < S; ++s) {
                        ts[(0 * S + s) * G + t] = Mv[s];
                        ts[(1 * S + s) * G + t] = Iv[s];
                        ts[(2 * S + s) * G + t] = Dv[s];
                    }
                }
            }
            if (live) Rfin = R;
            // xB of the next row: xN + NCJ until some match cell passes 12500 (HMMER units).
            if (__any_sync(kFull, __vimax3_s16x2(R, high2, high2) != high2)) {
                int r = max(lo16s(R), hi16s(R));
#pragma unroll
                for (int o = G / 2; o >= 1; o >>= 1) r = max(r, __shfl_xor_sync(kFull, r, o, G));
                const int xb = max(r + p.K - 500, kVitBase) + ncj - p.K;
                xB2 = pack16(xb, xb);
            }
        }
        int r = max(lo16s(Rfin), hi16s(Rfin));
#pragma unroll
        for (int o = G / 2; o >= 1; o >>= 1) r = max(r, __shfl_xor_sync(kFull, r, o, G));
        uint32_t result;
        const int rh = r + p.K;  // HMMER units
        if (L == 0 || rh - 500 <= kVitNegInf) result = 0xFFFFFFFEu;
        else if (rh >= 32767) result = 0xFFFFFFFFu;
        else result = static_cast<uint32_t>(rh - 500 + 32768);
        if (valid && t == 0) p.out[j] = result;
        if constexpr (TILED) __syncwarp();
    }
}

}  // namespace warpdp::cuda
