// The Forward-parser kernel for long rows: one warp per target, thread 8z + s
// playing sub-block s of HMMER's SIMD lane z (docs/hmmer-filters.md §7.2).
// HMMER's row is serial only in its ordered sums (the lane's E accumulator, the
// D->D chains); the M, I and M->D values of a row are independent across
// positions. So the eight threads of a lane compute their blocks of positions
// side by side, and the ordered chains then run through the blocks in position
// order, handing their carries from thread to thread: exactly HMMER's
// operations in HMMER's order, with a row's latency about the length of its
// chains instead of its whole work. Rows and the model's transitions live in
// shared memory (padded so the 32 threads of a warp touch 32 different banks);
// emissions come from global memory. Arithmetic as in fwd_kernels.cuh (explicit
// rn.ftz instructions).
#pragma once

#include <cstdint>

#include "kernels/fwd/fwd_kernels.cuh"

namespace warpdp {

// Positions per thread P = ceil(Q / 8), padded to P' = 1 (mod 8) in shared
// memory: position q of lane z sits at ((q / P) * P' + q % P) * 4 + z.
struct FwdWarpShape {
    int P, Pp, W;  // W: targets (warps) per block
    uint64_t smem_bytes;
};

__host__ __device__ inline int fwd_warp_slot(int q, int z, int P, int Pp) { return ((q / P) * Pp + q % P) * 4 + z; }

__global__ void __launch_bounds__(128) fwd_warp_kernel(FwdParams p, int P, int Pp, int W) {
    using namespace fwd_device;
    constexpr int kTile = 8;
    extern __shared__ float smem[];
    constexpr unsigned kAll = 0xFFFFFFFFu;
    const int Q = p.Q;
    const int span = 32 * Pp;  // floats of one row array (all lanes)
    float* const T = smem;     // T[slot * span + slot_of(q, z)]
    for (int i = threadIdx.x; i < 8 * span; i += blockDim.x) T[i] = 0.0f;
    __syncthreads();
    for (int i = threadIdx.x; i < Q * 4 * 8; i += blockDim.x) {
        const int q = i / 32, z = (i / 8) % 4, slot = i % 8;  // p.trans is [(q * 4 + z) * 8 + slot]
        T[slot * span + fwd_warp_slot(q, z, P, Pp)] = p.trans[i];
    }
    __syncthreads();
    const int warp = threadIdx.x / 32;
    const uint64_t g = static_cast<uint64_t>(blockIdx.x) * W + warp;
    if (g >= p.n) return;
    const int t = threadIdx.x % 32;
    const int z = t / 8, s = t % 8;
    float* const Mx = smem + 8 * span + warp * 3 * span;
    float* const Dx = Mx + span;
    float* const Ix = Dx + span;
    const int s_last = (Q - 1) / P;  // the thread holding position Q-1
    const int q0 = s * P, q1 = min(Q, q0 + P);  // my positions (none when q0 >= Q)
    const int base = s * Pp * 4 + z;             // slot of q0; q0 + k is at base + 4k
    const int n = max(0, q1 - q0);
    for (int k = 0; k < n; ++k) Mx[base + 4 * k] = Dx[base + 4 * k] = Ix[base + 4 * k] = 0.0f;
    __syncwarp();
    const uint64_t L = p.off[g + 1] - p.off[g];
    const uint8_t* dsq = p.res + p.off[g];
    FwdSpecials sp(L);
    uint32_t nsc = 0;
    // The value a lane's chain leaves at its last position, handed to lane z+1.
    const int last_of_prev_lane = (z > 0 ? z - 1 : 0) * 8 + s_last;
    const int prev_end_slot = fwd_warp_slot(Q - 1, z > 0 ? z - 1 : 0, P, Pp);
    for (uint64_t i = 0; i < L; ++i) {
        // Inputs from the position before my first: the previous row's values,
        // read before anyone overwrites them (lane 0's first position: 0).
        float mpv = 0.0f, dpv = 0.0f, ipv = 0.0f;
        if (n > 0 && (s > 0 || z > 0)) {
            const int b = s > 0 ? base - 4 * (Pp - P + 1) : prev_end_slot;  // q0 - 1 of lane z, or Q - 1 of lane z - 1
            mpv = Mx[b];
            dpv = Dx[b];
            ipv = Ix[b];
        }
        __syncwarp();
        const float* const ez = p.emit + static_cast<uint64_t>(dsq[i]) * Q * 4 + z + q0 * 4;
        float dcv = 0.0f;
        // Tiles of kTile positions: every load of a tile first, so its
        // latencies overlap, then the arithmetic, then the stores.
        for (int k0 = 0; k0 < n; k0 += kTile) {
            float pm[kTile], pd[kTile], pi[kTile], e[kTile];
#pragma unroll
            for (int u = 0; u < kTile; ++u) {
                const int a = base + 4 * (k0 + u);
                if (k0 + u < n) {
                    pm[u] = Mx[a];  // previous row at q
                    pd[u] = Dx[a];
                    pi[u] = Ix[a];
                    e[u] = __ldg(ez + (k0 + u) * 4);
                }
            }
#pragma unroll
            for (int u = 0; u < kTile; ++u) {
                if (k0 + u >= n) break;
                const int a = base + 4 * (k0 + u);
                float sv = mul(sp.xB, T[0 * span + a]);
                sv = add(sv, mul(mpv, T[1 * span + a]));
                sv = add(sv, mul(ipv, T[2 * span + a]));
                sv = add(sv, mul(dpv, T[3 * span + a]));
                sv = mul(sv, e[u]);
                Mx[a] = sv;
                Dx[a] = dcv;
                dcv = mul(sv, T[4 * span + a]);
                Ix[a] = add(mul(pm[u], T[5 * span + a]), mul(pi[u], T[6 * span + a]));
                mpv = pm[u];
                dpv = pd[u];
                ipv = pi[u];
            }
        }
        // M->D into my first position comes from the thread before me (lane
        // 0 of HMMER's vector starts the row's D at 0).
        {
            const float from = __shfl_up_sync(kAll, dcv, 1);
            if (s > 0 && n > 0) Dx[base] = from;
        }
        const float row_end_dcv = __shfl_sync(kAll, dcv, last_of_prev_lane);
        // The lane's M sum and the first D->D pass (carrying D values), block
        // by block in position order.
        float acc = 0.0f;
        float c = (s == 0 && z > 0) ? row_end_dcv : 0.0f;
        for (int step = 0; step <= s_last; ++step) {
            if (s == step)
                for (int k0 = 0; k0 < n; k0 += kTile) {
                    float m[kTile], d[kTile], tdd[kTile];
#pragma unroll
                    for (int u = 0; u < kTile; ++u) {
                        const int a = base + 4 * (k0 + u);
                        if (k0 + u < n) {
                            m[u] = Mx[a];
                            d[u] = Dx[a];
                            tdd[u] = T[7 * span + a];
                        }
                    }
#pragma unroll
                    for (int u = 0; u < kTile; ++u) {
                        if (k0 + u >= n) break;
                        acc = add(acc, m[u]);
                        d[u] = add(c, d[u]);
                        c = mul(d[u], tdd[u]);
                    }
#pragma unroll
                    for (int u = 0; u < kTile; ++u)
                        if (k0 + u < n) Dx[base + 4 * (k0 + u)] = d[u];
                }
            const float acc_in = __shfl_up_sync(kAll, acc, 1), c_in = __shfl_up_sync(kAll, c, 1);
            if (s == step + 1) {
                acc = acc_in;
                c = c_in;
            }
        }
        const float xEm = __shfl_sync(kAll, acc, z * 8 + s_last);
        float c_end = __shfl_sync(kAll, c, last_of_prev_lane);
        float e_lane = 0.0f;
        // Up to three more passes carrying only the D->D extensions; each
        // sums its D's onto the M sum (the last pass run leaves HMMER's E).
        for (int pass = 1; pass < 4; ++pass) {
            c = (s == 0 && z > 0) ? c_end : 0.0f;
            float sum = s == 0 ? xEm : 0.0f;
            bool changed = false;
            for (int step = 0; step <= s_last; ++step) {
                if (s == step)
                    for (int k0 = 0; k0 < n; k0 += kTile) {
                        float d[kTile], tdd[kTile];
#pragma unroll
                        for (int u = 0; u < kTile; ++u) {
                            const int a = base + 4 * (k0 + u);
                            if (k0 + u < n) {
                                d[u] = Dx[a];
                                tdd[u] = T[7 * span + a];
                            }
                        }
#pragma unroll
                        for (int u = 0; u < kTile; ++u) {
                            if (k0 + u >= n) break;
                            const float nd = add(c, d[u]);
                            changed |= nd > d[u];
                            d[u] = nd;
                            sum = add(nd, sum);
                            c = mul(c, tdd[u]);
                        }
#pragma unroll
                        for (int u = 0; u < kTile; ++u)
                            if (k0 + u < n) Dx[base + 4 * (k0 + u)] = d[u];
                    }
                const float sum_in = __shfl_up_sync(kAll, sum, 1), c_in = __shfl_up_sync(kAll, c, 1);
                if (s == step + 1) {
                    sum = sum_in;
                    c = c_in;
                }
            }
            e_lane = sum;
            c_end = __shfl_sync(kAll, c, last_of_prev_lane);
            if (p.M >= 100 && !__any_sync(kAll, changed)) break;
        }
        const float e0 = __shfl_sync(kAll, e_lane, s_last), e1 = __shfl_sync(kAll, e_lane, 8 + s_last);
        const float e2 = __shfl_sync(kAll, e_lane, 16 + s_last), e3 = __shfl_sync(kAll, e_lane, 24 + s_last);
        const float xE = add(add(e0, e1), add(e2, e3));
        float r;
        if (sp.end_row(xE, &r)) {
            for (int k = 0; k < n; ++k) {
                const int a = base + 4 * k;
                Mx[a] = mul(Mx[a], r);
                Dx[a] = mul(Dx[a], r);
                Ix[a] = mul(Ix[a], r);
            }
            if (t == 0) p.scales[p.off[g] + nsc] = xE;
            ++nsc;
        }
        __syncwarp();  // this row's values are in place before the next row's boundary reads
    }
    if (t == 0) {
        p.xc[g] = sp.xC;
        p.nscales[g] = nsc;
    }
}

}  // namespace warpdp
