// The post-filter Forward, Backward and posterior decoding on the GPU
// (docs/hmmer-filters.md §16.8): four threads per job, each job on its own
// model's odds and shape (DomParams::models), thread z playing SSE lane z
// of dom_cpu.cpp's vectors, each float operation the one dom_cpu.cpp
// performs, in its order, as an explicit round-to-nearest flush-to-zero PTX
// instruction (no FMA, denormal results 0 as under hmmsearch's FTZ mode).
// Lane shifts and the (e0+e1)+(e2+e3) sums go through shuffles within the
// four; every other value a thread reads is its own lane's, so the only
// cross-thread memory traffic is the specials, written by lane 0 and read
// after a __syncwarp. Compiled for the host too, by
// tests/kernels/dom/test_dom_emulated.cpp: there the arithmetic is the
// scalar references' (each result flushed by hand).
#pragma once

#include <cstdint>

#include "kernels/dom/dom_layout.hpp"
#if defined(__CUDACC__)
#include "kernels/common/ptx_ftz.cuh"
#endif

// The row loops unrolled on the device, so more loads are in flight; the
// host emulation takes them as they are.
#if defined(__CUDACC__)
#define WARPDP_DOM_UNROLL _Pragma("unroll 4")
#else
#define WARPDP_DOM_UNROLL
#endif

namespace warpdp {

namespace dom_device {

#if defined(__CUDA_ARCH__)
using ptx_ftz::add;
using ptx_ftz::div;
using ptx_ftz::mul;
#else
__device__ __forceinline__ float flushed(float r) { return (r < 1.17549435e-38f && r > -1.17549435e-38f) ? 0.0f * r : r; }
__device__ __forceinline__ float mul(float a, float b) { return flushed(a * b); }
__device__ __forceinline__ float add(float a, float b) { return flushed(a + b); }
__device__ __forceinline__ float div(float a, float b) { return flushed(a / b); }
#endif
// fl(1 / v) with the quotient in double, the conversion flushed as SSE's is.
__device__ __forceinline__ float recip_dbl(float v) {
    const float r = __double2float_rn(1.0 / static_cast<double>(v));
    return fabsf(r) < 1.17549435e-38f ? copysignf(0.0f, r) : r;
}

enum : int { kE = 0, kN, kJ, kB, kC, kScale, kX = 6 };
enum : int { kM = 0, kD, kI };
enum : int { tBM = 0, tMM, tIM, tDM, tMD, tMI, tII, tDD };

// One job's view for lane z of its group of four, on its model's odds.
struct Lane {
    unsigned group;
    int z, M, Q;
    uint64_t R;          // floats of a row of cells
    const float* trans;  // the model's FwdProfile::trans
    const float* emit;   // the model's FwdProfile::emit

    __device__ float t(int q, int s) const { return __ldg(trans + (q * 8 + s) * 4 + z); }
    __device__ float e(uint8_t x, int q) const { return __ldg(emit + (static_cast<uint64_t>(x) * Q + q) * 4 + z); }
    // Lane z takes lane z-1 (lane 0 takes 0), and lane z takes lane z+1 (lane 3 takes 0).
    __device__ float shift_up(float v) const {
        const float u = __shfl_up_sync(group, v, 1, 4);
        return z == 0 ? 0.0f : u;
    }
    __device__ float shift_down(float v) const {
        const float u = __shfl_down_sync(group, v, 1, 4);
        return z == 3 ? 0.0f : u;
    }
    // (e0 + e1) + (e2 + e3), the same bits on every lane.
    __device__ float hsum(float v) const {
        const float pair = add(v, __shfl_xor_sync(group, v, 1, 4));
        return add(pair, __shfl_xor_sync(group, pair, 2, 4));
    }
    __device__ void rescale(float* row, float scale) const {
        const float r = recip_dbl(scale);
        WARPDP_DOM_UNROLL
        for (int q = 0; q < Q; ++q)
            for (int c = 0; c < 3; ++c) row[q * 12 + c * 4] = mul(row[q * 12 + c * 4], r);
    }
};

__device__ __forceinline__ void store_specials(float* x, bool writer, float xE, float xN, float xJ, float xB,
                                               float xC, float scale) {
    if (!writer) return;
    x[kE] = xE;
    x[kN] = xN;
    x[kJ] = xJ;
    x[kB] = xB;
    x[kC] = xC;
    x[kScale] = scale;
}

// The special states' update of a Forward row from its E, and of a
// Backward row from its B (dom_fwdback.cpp's operations in its order), and
// their division by a row's scale factor: one place for both kernel forms.
__device__ __forceinline__ void forward_specials(const DomJobDesc& jd, float xE, float& xN, float& xJ, float& xB,
                                                 float& xC) {
    xN = mul(xN, jd.n_loop);
    xC = add(mul(xC, jd.c_loop), mul(xE, jd.e_move));
    xJ = add(mul(xJ, jd.j_loop), mul(xE, jd.e_loop));
    xB = add(mul(xJ, jd.j_move), mul(xN, jd.n_move));
}
__device__ __forceinline__ void backward_specials(const DomJobDesc& jd, float xB, float& xE, float& xN, float& xJ,
                                                  float& xC) {
    xC = mul(xC, jd.c_loop);
    xJ = add(mul(xB, jd.j_move), mul(xJ, jd.j_loop));
    xN = add(mul(xB, jd.n_move), mul(xN, jd.n_loop));
    xE = add(mul(xC, jd.e_move), mul(xJ, jd.e_loop));
}
__device__ __forceinline__ void divide_specials(float scale, float& xN, float& xJ, float& xB, float& xC) {
    xN = div(xN, scale);
    xJ = div(xJ, scale);
    xB = div(xB, scale);
    xC = div(xC, scale);
}

// dom_forward_cpu. rows(i): lane z's base of row i's cells.
template <class Rows>
__device__ void forward(const Lane& ln, const DomJobDesc& jd, const uint8_t* dsq, Rows rows, float* fx) {
    const int Q = ln.Q;
    const uint64_t L = jd.L;
    const bool w = ln.z == 0;
    {
        float* const r0 = rows(0);
        for (int q = 0; q < Q; ++q) r0[q * 12] = r0[q * 12 + 4] = r0[q * 12 + 8] = 0.0f;
    }
    float xE = 0.0f, xN = 1.0f, xJ = 0.0f, xB = jd.n_move, xC = 0.0f;
    store_specials(fx, w, xE, xN, xJ, xB, xC, 1.0f);
    for (uint64_t i = 1; i <= L; ++i) {
        const float* const prev = rows(i - 1);
        float* const cur = rows(i);
        const uint8_t x = dsq[i - 1];
        float dcv = 0.0f, xEv = 0.0f;
        float mpv = ln.shift_up(prev[(Q - 1) * 12 + 0]);
        float dpv = ln.shift_up(prev[(Q - 1) * 12 + 4]);
        float ipv = ln.shift_up(prev[(Q - 1) * 12 + 8]);
        WARPDP_DOM_UNROLL
        for (int q = 0; q < Q; ++q) {
            float sv = mul(xB, ln.t(q, tBM));
            sv = add(sv, mul(mpv, ln.t(q, tMM)));
            sv = add(sv, mul(ipv, ln.t(q, tIM)));
            sv = add(sv, mul(dpv, ln.t(q, tDM)));
            sv = mul(sv, ln.e(x, q));
            xEv = add(xEv, sv);
            mpv = prev[q * 12 + 0];
            dpv = prev[q * 12 + 4];
            ipv = prev[q * 12 + 8];
            cur[q * 12 + 0] = sv;
            cur[q * 12 + 4] = dcv;
            dcv = mul(sv, ln.t(q, tMD));
            cur[q * 12 + 8] = add(mul(mpv, ln.t(q, tMI)), mul(ipv, ln.t(q, tII)));
        }
        dcv = ln.shift_up(dcv);
        cur[4] = 0.0f;
        WARPDP_DOM_UNROLL
        for (int q = 0; q < Q; ++q) {
            const float d = add(dcv, cur[q * 12 + 4]);
            cur[q * 12 + 4] = d;
            dcv = mul(d, ln.t(q, tDD));
        }
        for (int pass = 1; pass < 4; ++pass) {
            dcv = ln.shift_up(dcv);
            bool changed = false;
            WARPDP_DOM_UNROLL
            for (int q = 0; q < Q; ++q) {
                const float old = cur[q * 12 + 4];
                const float d = add(dcv, old);
                changed |= d > old;
                cur[q * 12 + 4] = d;
                dcv = mul(dcv, ln.t(q, tDD));
            }
            // the vote is taken by all four lanes whatever M is
            if (!__any_sync(ln.group, changed) && ln.M >= 100) break;
        }
        WARPDP_DOM_UNROLL
        for (int q = 0; q < Q; ++q) xEv = add(cur[q * 12 + 4], xEv);
        xE = ln.hsum(xEv);
        forward_specials(jd, xE, xN, xJ, xB, xC);
        float scale = 1.0f;
        if (xE > 1.0e4f) {
            divide_specials(xE, xN, xJ, xB, xC);
            ln.rescale(cur, xE);
            scale = xE;
            xE = 1.0f;
        }
        store_specials(fx + i * kX, w, xE, xN, xJ, xB, xC, scale);
    }
}

// dom_backward_cpu; fx: the Forward specials (its scale factors). Returns
// whether Backward took its own factors.
template <class Rows>
__device__ bool backward(const Lane& ln, const DomJobDesc& jd, const uint8_t* dsq, Rows rows, const float* fx,
                         float* bx) {
    const int Q = ln.Q;
    const uint64_t L = jd.L;
    const bool w = ln.z == 0;
    float xJ = 0.0f, xB = 0.0f, xN = 0.0f;
    float xC = jd.c_move;
    float xE = mul(xC, jd.e_move);
    {
        float* const r = rows(L);
        for (int q = 0; q < Q; ++q) {
            r[q * 12 + 0] = xE;
            r[q * 12 + 4] = xE;
            r[q * 12 + 8] = 0.0f;
        }
        float dpv = ln.shift_down(r[(Q - 1) * 12 + 4]), dcv = 0.0f;
        for (int q = Q - 1; q >= 0; --q) {
            dcv = mul(dpv, ln.t(q, tDD));
            const float d = add(r[q * 12 + 4], dcv);
            r[q * 12 + 4] = d;
            dpv = d;
        }
        for (int pass = 1; pass < 4; ++pass) {
            dcv = ln.shift_down(dcv);
            for (int q = Q - 1; q >= 0; --q) {
                dcv = mul(dcv, ln.t(q, tDD));
                r[q * 12 + 4] = add(r[q * 12 + 4], dcv);
            }
        }
        dcv = ln.shift_down(r[4]);
        for (int q = Q - 1; q >= 0; --q) {
            r[q * 12 + 0] = add(r[q * 12 + 0], mul(dcv, ln.t(q, tMD)));
            dcv = r[q * 12 + 4];
        }
        const float scale = fx[L * kX + kScale];
        if (scale > 1.0f) {
            xE = div(xE, scale);
            divide_specials(scale, xN, xJ, xB, xC);
            ln.rescale(r, scale);
        }
        store_specials(bx + L * kX, w, xE, xN, xJ, xB, xC, scale);
    }

    bool own = false;
    for (uint64_t i = L - 1; i >= 1; --i) {
        const float* const nxt = rows(i + 1);
        float* const cur = rows(i);
        const uint8_t x = dsq[i];  // residue i+1
        float tmmv = ln.shift_down(ln.t(0, tMM)), timv = ln.shift_down(ln.t(0, tIM)),
              tdmv = ln.shift_down(ln.t(0, tDM));
        float mpv = ln.shift_down(mul(nxt[0], ln.e(x, 0)));
        float xBv = 0.0f;
        WARPDP_DOM_UNROLL
        for (int q = Q - 1; q >= 0; --q) {
            const float ipv = nxt[q * 12 + 8];
            cur[q * 12 + 8] = add(mul(ipv, ln.t(q, tII)), mul(mpv, timv));
            cur[q * 12 + 4] = mul(mpv, tdmv);
            const float mcv = add(mul(ipv, ln.t(q, tMI)), mul(mpv, tmmv));
            mpv = mul(nxt[q * 12 + 0], ln.e(x, q));
            cur[q * 12 + 0] = mcv;
            tdmv = ln.t(q, tDM);
            timv = ln.t(q, tIM);
            tmmv = ln.t(q, tMM);
            xBv = add(xBv, mul(mpv, ln.t(q, tBM)));
        }
        xB = ln.hsum(xBv);
        backward_specials(jd, xB, xE, xN, xJ, xC);
        float dpv = ln.shift_down(add(cur[4], xE)), dcv = 0.0f;
        WARPDP_DOM_UNROLL
        for (int q = Q - 1; q >= 0; --q) {
            dcv = mul(dpv, ln.t(q, tDD));
            const float d = add(cur[q * 12 + 4], add(dcv, xE));
            cur[q * 12 + 4] = d;
            dpv = d;
            cur[q * 12 + 0] = add(cur[q * 12 + 0], xE);
        }
        for (int pass = 1; pass < 4; ++pass) {
            dcv = ln.shift_down(dcv);
            WARPDP_DOM_UNROLL
            for (int q = Q - 1; q >= 0; --q) {
                dcv = mul(dcv, ln.t(q, tDD));
                cur[q * 12 + 4] = add(cur[q * 12 + 4], dcv);
            }
        }
        dcv = ln.shift_down(cur[4]);
        WARPDP_DOM_UNROLL
        for (int q = Q - 1; q >= 0; --q) {
            cur[q * 12 + 0] = add(cur[q * 12 + 0], mul(dcv, ln.t(q, tMD)));
            dcv = cur[q * 12 + 4];
        }
        if (static_cast<double>(xB) > 1.0e16) own = true;
        const float scale = own ? (xB > 1.0e4f ? xB : 1.0f) : fx[i * kX + kScale];
        if (scale > 1.0f) {
            xE = div(xE, scale);
            divide_specials(scale, xN, xJ, xB, xC);
            ln.rescale(cur, scale);
        }
        store_specials(bx + i * kX, w, xE, xN, xJ, xB, xC, scale);
    }

    const float* const one = rows(1);
    const uint8_t x = dsq[0];
    float xBv = 0.0f;
    for (int q = 0; q < Q; ++q) {
        float mpv = mul(one[q * 12 + 0], ln.e(x, q));
        mpv = mul(mpv, ln.t(q, tBM));
        xBv = add(xBv, mpv);
    }
    xB = ln.hsum(xBv);
    xN = add(mul(xB, jd.n_move), mul(xN, jd.n_loop));
    store_specials(bx, w, 0.0f, xN, 0.0f, xB, 0.0f, 1.0f);
    return own;
}

// Decoding's row i of posterior specials (written where `writer`) from the
// Forward and Backward specials; returns the scale product for row i+1.
__device__ __forceinline__ float decode_specials(const DomJobDesc& jd, const float* fx, const float* bx, float* px,
                                                 uint64_t i, float sp, bool own, bool writer) {
    const float* const fp = fx + (i - 1) * kX;
    const float* const bi = bx + i * kX;
    store_specials(px + i * kX, writer, 0.0f, mul(mul(mul(fp[kN], bi[kN]), jd.n_loop), sp),
                   mul(mul(mul(fp[kJ], bi[kJ]), jd.j_loop), sp), 0.0f, mul(mul(mul(fp[kC], bi[kC]), jd.c_loop), sp),
                   bi[kScale]);
    return own ? mul(sp, div(fx[i * kX + kScale], bi[kScale])) : sp;
}

// dom_decoding_cpu with pp = bck: F, P: lane z's base of row 0 of the
// Forward and Backward cells (rows R apart); px: the posterior specials.
// Returns whether the scale product overflowed.
__device__ bool decode(const Lane& ln, const DomJobDesc& jd, const float* F, float* P, const float* fx,
                       const float* bx, float* px, bool own) {
    const int Q = ln.Q;
    const bool w = ln.z == 0;
    float sp = recip_dbl(bx[kN]);
    for (int q = 0; q < Q; ++q) P[q * 12] = P[q * 12 + 4] = P[q * 12 + 8] = 0.0f;
    store_specials(px, w, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, bx[kScale]);
    for (uint64_t i = 1; i <= jd.L; ++i) {
        const float totr = mul(sp, fx[i * kX + kScale]);
        const float* const f = F + i * ln.R;
        float* const b = P + i * ln.R;
        WARPDP_DOM_UNROLL
        for (int q = 0; q < Q; ++q) {
            b[q * 12 + 0] = mul(mul(f[q * 12 + 0], b[q * 12 + 0]), totr);
            b[q * 12 + 4] = 0.0f;
            b[q * 12 + 8] = mul(mul(f[q * 12 + 8], b[q * 12 + 8]), totr);
        }
        sp = decode_specials(jd, fx, bx, px, i, sp, own, w);
    }
    return fabsf(sp) > 3.40282347e+38f;  // infinite
}

}  // namespace dom_device

__global__ void __launch_bounds__(128) dom_kernel(DomParams p) {
    using namespace dom_device;
    const uint64_t tid = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const uint64_t g = tid / 4;
    if (g >= p.n) return;  // whole groups of four leave together
    const uint32_t j = p.order[g];
    const DomJobDesc jd = p.jobs[j];
    const DomModelDesc md = p.models[jd.model];
    const Lane ln{0xFu << (threadIdx.x & 28u), static_cast<int>(tid % 4), md.M, md.Q,
                  static_cast<uint64_t>(md.Q) * 12, p.trans + md.trans, p.emit + md.emit};
    const uint8_t* const dsq = p.res + jd.res_off;
    float* const fx = p.arena + jd.spec_off;
    float* const bx = fx + (jd.L + 1) * kX;
    float* const base = p.arena + jd.mat_off + ln.z;
    uint32_t flags = 0;
    if (jd.full) {
        const uint64_t block = (jd.L + 1) * (ln.R + kX);  // one matrix with its specials
        float* const F = base;
        float* const P = base + block;
        forward(ln, jd, dsq, [&](uint64_t i) { return F + i * ln.R; }, fx);
        __syncwarp(ln.group);
        const bool own = backward(ln, jd, dsq, [&](uint64_t i) { return P + i * ln.R; }, fx, bx);
        __syncwarp(ln.group);
        if (own) flags |= kDomFlagOwnScales;
        if (decode(ln, jd, F, P, fx, bx, P - ln.z + (jd.L + 1) * ln.R, own)) flags |= kDomFlagOverflow;
    } else {
        const auto rows = [&](uint64_t i) { return base + (i & 1) * ln.R; };
        forward(ln, jd, dsq, rows, fx);
        __syncwarp(ln.group);
        if (backward(ln, jd, dsq, rows, fx, bx)) flags |= kDomFlagOwnScales;
    }
    if (ln.z == 0) p.flags[j] = flags;
}

}  // namespace warpdp
