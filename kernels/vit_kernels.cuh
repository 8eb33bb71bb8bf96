// The Viterbi filter's CUDA kernel (HMMER 3.3.2 semantics, spec §6.2). Kernels
// only compute: device pointers, sizes and a parameter struct in, results out;
// vit_cuda.cu decides shapes and launches.
//
// Layout. One warp owns one target and steps its rows. The model is cut into
// tiles of 32*S nodes; lane t owns S consecutive nodes of a tile. A model of
// one tile keeps its M/I/D row in registers; longer models keep each tile's
// row in a per-warp global scratch (coalesced, L1/L2 resident) between tiles.
// The profile is read through the read-only cache in a lane-interleaved
// layout, so a warp's loads are consecutive.
//
// Exactness. Cells are int32 holding int16 values. Every transition word is
// <= 0, so HMMER's saturating "x + t" is exactly max(x + t, -32768) (including
// "x + (-32768)" = x - 32768 for x > 0); only the emission add can leave the
// int16 range upward, and it is clamped both ways. int32 sums of two int16
// never wrap, so the DPX int32 forms (__viaddmax_s32, __vimax3_s32) are exact;
// the 16-bit DPX forms are never used (see docs/vit-cuda.md for the probe).
// The D->D chain inside a row is the max-plus closure
//   D(k+1) = max(M(k) + MD(k), D(k) + DD(k), -32768),
// which with a floor at -32768 composes exactly like plain max-plus affine
// maps f(d) = max(a, d + b): each lane folds its S nodes into (a, b), a warp
// scan of those maps gives each lane the D entering its first node, and a
// second pass over the lane's nodes writes the D values.
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
    const uint4* trans = nullptr;    // [(tile*S + j)*32 + lane]: {BM|MM, IM|DM, MD|MI, II|DD}
    const uint32_t* emit = nullptr;  // [((x*ntiles + tile)*S/2 + jp)*32 + lane]: nodes 2jp | 2jp+1 << 16
    int ntiles = 1;
    int16_t* scratch = nullptr;      // per warp: [tile][state 3][j][lane], only when ntiles > 1
    uint32_t* work = nullptr;        // work counter, zeroed before the launch
};

__device__ __forceinline__ int lo16(uint32_t w) { return static_cast<int16_t>(w & 0xFFFFu); }
__device__ __forceinline__ int hi16(uint32_t w) { return static_cast<int16_t>(w >> 16); }

// One (a, b) max-plus map after another: x -> max(a2, max(a1, x + b1) + b2).
__device__ __forceinline__ void compose_after(int& a2, int& b2, int a1, int b1) {
    a2 = max(a2, a1 + b2);
    b2 = max(b1 + b2, kVitBFloor);
}

template <int S>
__global__ void __launch_bounds__(kVitBlock) vit_kernel(const VitParams p) {
    static_assert(S % 2 == 0 && S >= 2, "S must be even");
    constexpr unsigned kFull = 0xFFFFFFFFu;
    const int lane = static_cast<int>(threadIdx.x) & 31;
    const size_t warp_id = (static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const bool tiled = p.ntiles > 1;
    int16_t* scr = tiled ? p.scratch + warp_id * static_cast<size_t>(p.ntiles) * 3 * S * 32 : nullptr;

    for (;;) {
        uint32_t j = 0;
        if (lane == 0) j = atomicAdd(p.work, 1u);
        j = __shfl_sync(kFull, j, 0);
        if (j >= p.n) break;
        const uint32_t tg = p.list[j];
        const uint8_t* seq = p.tg.res + p.tg.off[tg];
        const int L = static_cast<int>(p.tg.len[tg]);
        const int ncj = p.tg.ncj[tg];
        const int xN = 12000;
        int xB = xN + ncj, xC = kVitNegInf, xJ = kVitNegInf;

        int Mv[S], Iv[S], Dv[S];
#pragma unroll
        for (int s = 0; s < S; ++s) Mv[s] = Iv[s] = Dv[s] = kVitNegInf;
        if (tiled) {
            for (int i = lane; i < p.ntiles * 3 * S * 32; i += 32) scr[i] = static_cast<int16_t>(kVitNegInf);
            __syncwarp();
        }

        uint32_t result = 0;
        bool overflow = false;
        for (int i = 0; i < L; ++i) {
            const int x = __ldg(seq + i);
            int xE = kVitNegInf;
            int cM = kVitNegInf, cI = kVitNegInf, cD = kVitNegInf;  // previous row, node before the tile
            int cE = kVitNegInf;                                    // D entering the tile's first node
            for (int tile = 0; tile < p.ntiles; ++tile) {
                int16_t* ts = tiled ? scr + static_cast<size_t>(tile) * 3 * S * 32 : nullptr;
                if (tiled) {
#pragma unroll
                    for (int s = 0; s < S; ++s) {
                        Mv[s] = ts[(0 * S + s) * 32 + lane];
                        Iv[s] = ts[(1 * S + s) * 32 + lane];
                        Dv[s] = ts[(2 * S + s) * 32 + lane];
                    }
                }
                // Diagonal inputs of node 0 of this lane: the previous lane's last node.
                int dM = __shfl_up_sync(kFull, Mv[S - 1], 1);
                int dI = __shfl_up_sync(kFull, Iv[S - 1], 1);
                int dD = __shfl_up_sync(kFull, Dv[S - 1], 1);
                if (lane == 0) { dM = cM; dI = cI; dD = cD; }
                cM = __shfl_sync(kFull, Mv[S - 1], 31);
                cI = __shfl_sync(kFull, Iv[S - 1], 31);
                cD = __shfl_sync(kFull, Dv[S - 1], 31);

                const uint4* tr = p.trans + static_cast<size_t>(tile) * S * 32 + lane;
                const uint32_t* em =
                    p.emit + (static_cast<size_t>(x) * p.ntiles + tile) * (S / 2) * 32 + lane;
                // M and I, highest node first so node s-1 still holds the previous row.
#pragma unroll
                for (int s = S - 1; s >= 0; --s) {
                    const uint4 t = __ldg(tr + s * 32);
                    const uint32_t ew = __ldg(em + (s / 2) * 32);
                    const int e = (s & 1) ? hi16(ew) : lo16(ew);
                    const int pM = s ? Mv[s - 1] : dM;
                    const int pI = s ? Iv[s - 1] : dI;
                    const int pD = s ? Dv[s - 1] : dD;
                    int v = max(xB + lo16(t.x), kVitNegInf);
                    v = __viaddmax_s32(pM, hi16(t.x), v);
                    v = __viaddmax_s32(pI, lo16(t.y), v);
                    v = __viaddmax_s32(pD, hi16(t.y), v);
                    const int nI = max(__viaddmax_s32(Mv[s], hi16(t.z), kVitNegInf), Iv[s] + lo16(t.w));
                    const int nM = min(max(v + e, kVitNegInf), 32767);
                    Mv[s] = nM;
                    Iv[s] = nI;
                    xE = max(xE, nM);
                }
                // D: fold this lane's nodes into x -> max(a, x + b) (x = D entering node 0,
                // result = D leaving the last node), scan across lanes, then write.
                int a = kVitNegInf, b = 0;
#pragma unroll
                for (int s = 0; s < S; ++s) {
                    const uint4 t = __ldg(tr + s * 32);
                    a = max(Mv[s] + lo16(t.z), a + hi16(t.w));
                    a = max(a, kVitNegInf);
                    b = max(b + hi16(t.w), kVitBFloor);
                }
#pragma unroll
                for (int o = 1; o < 32; o <<= 1) {
                    const int ua = __shfl_up_sync(kFull, a, o);
                    const int ub = __shfl_up_sync(kFull, b, o);
                    if (lane >= o) compose_after(a, b, ua, ub);
                }
                // Inclusive map of lanes 0..t applied to the D entering the tile.
                const int leave = max(a, cE + b);
                int din = __shfl_up_sync(kFull, leave, 1);
                if (lane == 0) din = cE;
                cE = __shfl_sync(kFull, leave, 31);
                int d = max(din, kVitNegInf);
#pragma unroll
                for (int s = 0; s < S; ++s) {
                    Dv[s] = d;
                    const uint4 t = __ldg(tr + s * 32);
                    d = max(max(Mv[s] + lo16(t.z), d + hi16(t.w)), kVitNegInf);
                }
                if (tiled) {
#pragma unroll
                    for (int s = 0; s < S; ++s) {
                        ts[(0 * S + s) * 32 + lane] = static_cast<int16_t>(Mv[s]);
                        ts[(1 * S + s) * 32 + lane] = static_cast<int16_t>(Iv[s]);
                        ts[(2 * S + s) * 32 + lane] = static_cast<int16_t>(Dv[s]);
                    }
                }
            }
#pragma unroll
            for (int o = 16; o >= 1; o >>= 1) xE = max(xE, __shfl_xor_sync(kFull, xE, o));
            if (xE >= 32767) {
                overflow = true;
                break;
            }
            xC = max(xC, xE - 500);
            xJ = max(xJ, xE - 500);
            xB = max(xJ, xN) + ncj;
        }
        if (overflow) result = 0xFFFFFFFFu;
        else if (xC <= kVitNegInf) result = 0xFFFFFFFEu;
        else result = static_cast<uint32_t>(xC + 32768);
        if (lane == 0) p.out[j] = result;
        if (tiled) __syncwarp();
    }
}

// Prints nothing, decides nothing: the 16-bit DPX and SIMD intrinsics at the
// int16 edges, for the probe table (vit_probe.cu).
struct DpxProbeRow {
    int a, b, c;
    int viaddmax, vimax3, vimax_relu, viaddmax_relu, vaddss2;
};

}  // namespace warpdp::cuda
