// The MSV filter's CUDA kernels (HMMER 3.3.2 semantics, docs/hmmer-filters.md
// §5): the SSV fast path in Hopper DPX 16-bit lanes (a group of G lanes per
// target, S nodes a lane, two a word), and the full MSV with the J state for
// the targets SSV cannot decide. Kernels only compute: device pointers, sizes
// and a parameter struct in, results out; msv_cuda.cu decides shapes and
// launches. Layout and why the 16-bit lanes never wrap: docs/msv-cuda.md,
// "SSV kernel".
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace warpdp::cuda {

inline constexpr int kMsvCodes = 29;      // amino codes 0..28
inline constexpr int kPadCode = 29;       // read past a target's end
inline constexpr int kWCodes = 30;        // rows of the SSV weight table (codes + pad)
inline constexpr int16_t kWPad = -16384;  // weight of the pad code and of nodes past M
inline constexpr int kSsvBlock = 256;
inline constexpr int kMsvBlock = 256;
inline constexpr int kNoResult = -1;

// The resident chunk, in length-sorted order.
struct TargetsView {
    const uint8_t* res = nullptr;   // residues; each target starts 16-byte aligned
    const uint64_t* off = nullptr;  // start of target i in res
    const uint32_t* len = nullptr;
    const uint8_t* tjb = nullptr;   // tjb_b(L) per target (host logf, bit-exact)
    uint32_t n = 0;
};

struct SsvParams {
    TargetsView tg;
    const uint4* wtab = nullptr;  // this tile's weights, in the shared-memory layout
    int tile = 0;
    int ntiles = 1;
    int bias = 0, tbm = 0, tec = 0;
    int32_t* state = nullptr;     // per target, between tiles: max so far, or -1 = run full MSV
    int16_t* bnd = nullptr;       // per residue: last node's cell of the previous tile
    uint32_t* work = nullptr;     // work-unit counter (zeroed before the launch)
    uint16_t* out = nullptr;      // result per target
    uint32_t* fb_list = nullptr;  // targets for the full-MSV kernel
    uint32_t* fb_count = nullptr;
};

struct MsvParams {
    TargetsView tg;
    const int16_t* cost = nullptr;  // cost[x * M + (k - 1)]
    int M = 0;
    int bias = 0, tbm = 0, tec = 0;
    const uint32_t* list = nullptr;
    const uint32_t* count = nullptr;
    uint16_t* out = nullptr;
};

// The tail of docs/hmmer-filters.md §5.3: the SSV result from the maximum
// cell, or kNoResult.
__host__ __device__ inline int ssv_finish(int xEmax, int xB0, int bias, int tec) {
    const int off = xB0 - 128;
    const int u = xEmax - off < 255 ? xEmax - off : 255;
    if (u >= 255 - bias) return off >= 0 ? 0xFFFF : kNoResult;
    if (xEmax >= 255 - bias) return 0xFFFF;
    const int xJ = xEmax - tec;
    if (xJ > 190) return kNoResult;
    return xJ;
}

__device__ __forceinline__ int hmax16(uint32_t v) {
    const int lo = static_cast<int16_t>(v & 0xFFFFu);
    const int hi = static_cast<int16_t>(v >> 16);
    return lo > hi ? lo : hi;
}

template <int G, int S, bool TILED>
__global__ void __launch_bounds__(kSsvBlock) ssv_kernel(const SsvParams p) {
    static_assert(S % 8 == 0 && 32 % G == 0 && (!TILED || G == 32), "unsupported SSV shape");
    constexpr int P = S / 2;                    // int16x2 words per lane
    constexpr int Q = S / 8;                    // uint4 weight loads per lane and row
    constexpr int TPW = 32 / G;                 // targets per warp
    constexpr int RW = G >= 8 ? 1 : 8 / G;      // residue words per lane: one load covers >= 32 rows
    constexpr int RB = 4 * G * RW;              // rows per residue load
    constexpr unsigned kFull = 0xFFFFFFFFu;

    extern __shared__ uint4 wsh[];
    for (int i = static_cast<int>(threadIdx.x); i < kWCodes * Q * G; i += blockDim.x) wsh[i] = p.wtab[i];
    __syncthreads();

    const int lane = static_cast<int>(threadIdx.x) & 31;
    const int t = lane % G;
    const unsigned gmask = G == 32 ? kFull : ((1u << G) - 1u) << (lane - t);
    const uint32_t n_units = (p.tg.n + TPW - 1) / TPW;

    for (;;) {
        uint32_t unit = 0;
        if (lane == 0) unit = atomicAdd(p.work, 1u);
        unit = __shfl_sync(kFull, unit, 0);
        if (unit >= n_units) break;

        const uint32_t tg = unit * TPW + static_cast<uint32_t>(lane / G);
        const bool valid = tg < p.tg.n;
        int L = 0, xB0 = 0, T = 0, prior = -1;
        uint64_t off = 0;
        if (valid) {
            L = static_cast<int>(p.tg.len[tg]);
            off = p.tg.off[tg];
            const int tjb = p.tg.tjb[tg];
            xB0 = 190 - tjb - p.tbm;
            T = 255 - p.bias + (xB0 < 128 ? xB0 - 128 : 0);
            if (p.tile > 0) prior = p.state[tg];
            else prior = tjb + p.tbm + p.tec + p.bias >= 127 ? -1 : xB0;
        }
        int Leff = (prior >= 0 && prior < T) ? L : 0;
        int rows = Leff;
#pragma unroll
        for (int o = 16; o >= 1; o >>= 1) rows = max(rows, __shfl_xor_sync(kFull, rows, o));
        const uint32_t floor2 = static_cast<uint32_t>(static_cast<uint16_t>(xB0)) * 0x10001u;

        uint32_t h[P];
#pragma unroll
        for (int i = 0; i < P; ++i) h[i] = floor2;
        uint32_t best = floor2;
        uint32_t resw[RW];
        int bvals = 0, outv = 0, carry = xB0;

        for (int r0 = 0; r0 < rows; r0 += 32) {
            const int rb = r0 % RB;
            if (rb == 0) {
#pragma unroll
                for (int w = 0; w < RW; ++w)
                    resw[w] = *reinterpret_cast<const uint32_t*>(p.tg.res + off + r0 + 4 * (t + G * w));
            }
            if (TILED && p.tile > 0) bvals = r0 + lane < Leff ? p.bnd[off + r0 + lane] : 0;

#pragma unroll 1
            for (int j4 = 0; j4 < 32; j4 += 4) {
                const int widx = (rb + j4) >> 2;
                uint32_t word = resw[0];
#pragma unroll
                for (int w = 1; w < RW; ++w)
                    if (widx / G == w) word = resw[w];
                word = __shfl_sync(kFull, word, widx % G, G);
#pragma unroll
                for (int u = 0; u < 4; ++u) {
                    const int jj = j4 + u;
                    const int x = r0 + jj < Leff ? static_cast<int>((word >> (8 * u)) & 0xFFu) : kPadCode;
                    uint32_t up = __shfl_up_sync(kFull, h[P - 1], 1, G);
                    if (TILED) {
                        int bin = __shfl_sync(kFull, bvals, (jj + 31) & 31);
                        if (jj == 0) bin = carry;
                        if (p.tile == 0) bin = xB0;
                        if (t == 0) up = static_cast<uint32_t>(bin) << 16;
                    } else if (t == 0) {
                        up = floor2;
                    }
                    const uint32_t s0 = __byte_perm(up, h[P - 1], 0x5432);
                    const uint4* wrow = wsh + x * (Q * G) + t;
                    uint32_t wv[P];
#pragma unroll
                    for (int q = 0; q < Q; ++q) {
                        const uint4 v = wrow[q * G];
                        wv[4 * q] = v.x;
                        wv[4 * q + 1] = v.y;
                        wv[4 * q + 2] = v.z;
                        wv[4 * q + 3] = v.w;
                    }
#pragma unroll
                    for (int i = P - 1; i >= 1; --i) h[i] = __viaddmax_s16x2(h[i - 1], wv[i], floor2);
                    h[0] = __viaddmax_s16x2(s0, wv[0], floor2);
#pragma unroll
                    for (int i = 0; i < P; i += 2) best = __vimax3_s16x2(best, h[i], h[i + 1]);
                    if (TILED) {
                        const uint32_t last = __shfl_sync(kFull, h[P - 1], 31);
                        if (lane == jj) outv = static_cast<int>(last >> 16);
                    }
                }
            }
            if (TILED) {
                if (p.tile + 1 < p.ntiles && r0 + lane < Leff) p.bnd[off + r0 + lane] = static_cast<int16_t>(outv);
                carry = __shfl_sync(kFull, bvals, 31);
            }
            // The bound of the header comment: stop feeding residues once decided.
            const bool over = hmax16(best) >= T;
            if (__ballot_sync(kFull, over) & gmask) Leff = Leff < r0 + 32 ? Leff : r0 + 32;
            if (__all_sync(kFull, Leff <= r0 + 32)) break;
        }

        int bm = hmax16(best);
#pragma unroll
        for (int o = G / 2; o >= 1; o >>= 1) {
            const int other = __shfl_xor_sync(kFull, bm, o, G);
            bm = other > bm ? other : bm;
        }
        if (valid && t == 0) {
            int st = prior;
            if (prior >= 0 && prior < T) st = bm > prior ? bm : prior;
            if (p.tile + 1 < p.ntiles) {
                p.state[tg] = st;
            } else {
                const int r = st < 0 ? kNoResult : ssv_finish(st, xB0, p.bias, p.tec);
                if (r == kNoResult) p.fb_list[atomicAdd(p.fb_count, 1u)] = tg;
                else p.out[tg] = static_cast<uint16_t>(r);
            }
        }
    }
}

struct MsvGroupParams {
    TargetsView tg;
    const uint4* wtab = nullptr;  // the SSV weight table (one tile): the same w = bias - cost
    int bias = 0, tbm = 0, tec = 0;
    const uint32_t* list = nullptr;
    const uint32_t* count = nullptr;
    uint32_t* work = nullptr;
    uint16_t* out = nullptr;
};

// Full MSV (docs/hmmer-filters.md §5.2) in registers, same layout as ssv_kernel,
// for models of one tile and bias <= 64, where the byte recurrence needs no
// upper clamp (docs/msv-cuda.md, "Full MSV"); the row maximum is reduced
// across the group every row for the J state and the overflow test.
template <int G, int S>
__global__ void __launch_bounds__(kSsvBlock) msv_group_kernel(const MsvGroupParams p) {
    static_assert(S % 8 == 0 && 32 % G == 0, "unsupported MSV shape");
    constexpr int P = S / 2;
    constexpr int Q = S / 8;
    constexpr int TPW = 32 / G;
    constexpr unsigned kFull = 0xFFFFFFFFu;

    extern __shared__ uint4 wsh[];
    for (int i = static_cast<int>(threadIdx.x); i < kWCodes * Q * G; i += blockDim.x) wsh[i] = p.wtab[i];
    __syncthreads();

    const int lane = static_cast<int>(threadIdx.x) & 31;
    const int t = lane % G;
    const uint32_t n = *p.count;
    const uint32_t n_units = (n + TPW - 1) / TPW;

    for (;;) {
        uint32_t unit = 0;
        if (lane == 0) unit = atomicAdd(p.work, 1u);
        unit = __shfl_sync(kFull, unit, 0);
        if (unit >= n_units) break;
        const uint32_t idx = unit * TPW + static_cast<uint32_t>(lane / G);
        const bool valid = idx < n;
        uint32_t tg = 0;
        int L = 0, tjbm = 0;
        uint64_t off = 0;
        if (valid) {
            tg = p.list[idx];
            L = static_cast<int>(p.tg.len[tg]);
            off = p.tg.off[tg];
            tjbm = (p.tg.tjb[tg] + p.tbm) & 255;
        }
        int rows = L;
#pragma unroll
        for (int o = 16; o >= 1; o >>= 1) rows = max(rows, __shfl_xor_sync(kFull, rows, o));

        uint32_t h[P];
#pragma unroll
        for (int i = 0; i < P; ++i) h[i] = 0;
        int xJ = 0;
        int xB = 190 - tjbm > 0 ? 190 - tjbm : 0;
        int Leff = L;
        bool overflow = false;
        for (int r = 0; r < rows; ++r) {
            // One byte per row, read by every lane of the group (an L1 broadcast).
            const int x = r < Leff ? p.tg.res[off + r] : kPadCode;
            const uint32_t xB2 = static_cast<uint32_t>(xB) * 0x10001u;
            uint32_t up = __shfl_up_sync(kFull, h[P - 1], 1, G);
            if (t == 0) up = 0;
            const uint32_t s0 = __byte_perm(up, h[P - 1], 0x5432);
            const uint4* wrow = wsh + x * (Q * G) + t;
            uint32_t wv[P];
#pragma unroll
            for (int q = 0; q < Q; ++q) {
                const uint4 v = wrow[q * G];
                wv[4 * q] = v.x;
                wv[4 * q + 1] = v.y;
                wv[4 * q + 2] = v.z;
                wv[4 * q + 3] = v.w;
            }
#pragma unroll
            for (int i = P - 1; i >= 1; --i) h[i] = __viaddmax_s16x2(__vimax3_s16x2(h[i - 1], xB2, xB2), wv[i], 0u);
            h[0] = __viaddmax_s16x2(__vimax3_s16x2(s0, xB2, xB2), wv[0], 0u);
            uint32_t m2 = 0;
#pragma unroll
            for (int i = 0; i < P; i += 2) m2 = __vimax3_s16x2(m2, h[i], h[i + 1]);
            int xE = hmax16(m2);
#pragma unroll
            for (int o = G / 2; o >= 1; o >>= 1) xE = max(xE, __shfl_xor_sync(kFull, xE, o, G));
            if (r < Leff) {
                if (xE + p.bias >= 255) {
                    overflow = true;
                    Leff = r;  // decided: pad rows from here on
                } else {
                    xE = xE - p.tec > 0 ? xE - p.tec : 0;
                    xJ = xJ > xE ? xJ : xE;
                    const int b = (xJ > 190 ? xJ : 190) - tjbm;
                    xB = b > 0 ? b : 0;
                }
            }
            if (__all_sync(kFull, r + 1 >= Leff)) break;
        }
        if (valid && t == 0) p.out[tg] = overflow ? static_cast<uint16_t>(0xFFFF) : static_cast<uint16_t>(xJ);
    }
}

// Full MSV (docs/hmmer-filters.md §5.2) for the targets on the fallback list:
// one block per target, nodes strided over the block, the row kept in shared
// memory, one block-wide max per row for E and the overflow test. Exact byte
// saturation.
__global__ void __launch_bounds__(kMsvBlock) msv_full_kernel(const MsvParams p) {
    extern __shared__ int16_t msh[];
    __shared__ int red[kMsvBlock / 32];
    __shared__ int xe_sh;
    const int tid = static_cast<int>(threadIdx.x);
    const int lane = tid & 31;
    const int M = p.M;
    const uint32_t n = *p.count;
    for (uint32_t i = blockIdx.x; i < n; i += gridDim.x) {
        const uint32_t tg = p.list[i];
        const int L = static_cast<int>(p.tg.len[tg]);
        const uint8_t* seq = p.tg.res + p.tg.off[tg];
        const int tjbm = (p.tg.tjb[tg] + p.tbm) & 255;
        int16_t* prev = msh;
        int16_t* cur = msh + M + 1;
        __syncthreads();  // the previous target's last row is read by now
        for (int k = tid; k <= M; k += blockDim.x) prev[k] = 0;
        if (tid == 0) cur[0] = 0;
        __syncthreads();
        int xJ = 0;
        int xB = 190 - tjbm > 0 ? 190 - tjbm : 0;
        bool overflow = false;
        for (int r = 0; r < L; ++r) {
            const int16_t* crow = p.cost + static_cast<size_t>(seq[r]) * static_cast<size_t>(M);
            int lmax = 0;
            for (int k = tid; k < M; k += blockDim.x) {
                int v = prev[k] > xB ? prev[k] : xB;
                v = v + p.bias < 255 ? v + p.bias : 255;
                v = v - crow[k] > 0 ? v - crow[k] : 0;
                cur[k + 1] = static_cast<int16_t>(v);
                lmax = v > lmax ? v : lmax;
            }
            for (int o = 16; o >= 1; o >>= 1) lmax = max(lmax, __shfl_xor_sync(0xFFFFFFFFu, lmax, o));
            if (lane == 0) red[tid >> 5] = lmax;
            __syncthreads();
            if (tid < 32) {
                int v = lane < kMsvBlock / 32 ? red[lane] : 0;
                for (int o = 16; o >= 1; o >>= 1) v = max(v, __shfl_xor_sync(0xFFFFFFFFu, v, o));
                if (lane == 0) xe_sh = v;
            }
            __syncthreads();
            int xE = xe_sh;
            if (xE + p.bias >= 255) { overflow = true; break; }
            xE = xE - p.tec > 0 ? xE - p.tec : 0;
            xJ = xJ > xE ? xJ : xE;
            const int b = (xJ > 190 ? xJ : 190) - tjbm;
            xB = b > 0 ? b : 0;
            int16_t* tmp = prev;
            prev = cur;
            cur = tmp;
        }
        if (tid == 0) p.out[tg] = overflow ? static_cast<uint16_t>(0xFFFF) : static_cast<uint16_t>(xJ);
    }
}

}  // namespace warpdp::cuda
