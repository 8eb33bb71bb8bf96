// The Forward-parser kernel (HMMER 3.3.2 p7_ForwardParser,
// docs/hmmer-filters.md §7.2): four threads per target, thread z playing SIMD
// lane z of HMMER's striped vectors, so each float operation is the one HMMER's
// SSE code performs, in the same order. Every multiply, add and divide is an
// explicit round-to-nearest, flush-to-zero PTX instruction: no contraction into
// FMA, and denormal results become 0 as under hmmsearch's MXCSR setting,
// whatever the compiler flags. Targets of one launch share one model. This
// four-thread form keeps its rows in global memory, so it takes models of any
// width; kernels/fwd/fwd_warp_kernel.cuh (a warp per target, rows in shared
// memory) is the fast form for the models that fit there.
#pragma once

#include <cstdint>

#include "kernels/common/ptx_ftz.cuh"

namespace warpdp {

struct FwdParams {
    const float* emit;      // FwdProfile::emit: [code][q][lane]
    const float* trans;     // [(q * 4 + lane) * 8 + slot], slots in FwdTrans order
    int M, Q;
    const uint8_t* res;     // residues of the targets, back to back
    const uint64_t* off;    // n + 1 offsets into res
    uint32_t n;             // targets
    float* dp;              // fwd_kernel: 3 * Q * stride floats of row scratch
    uint64_t stride;        // fwd_kernel: >= 4 * n
    float* scales;          // rescaling factors, target j's from scales[off[j]] on
    uint32_t* nscales;      // per target: how many
    float* xc;              // per target: final xC
};

namespace fwd_device {

using ptx_ftz::add;
using ptx_ftz::div;
using ptx_ftz::mul;

// The special states of one target, and the end of a row: E's share to C
// and J, B for the next row, and HMMER's sparse rescaling once E exceeds
// 1e4 (every value of the row is then to be multiplied by *row_scale).
struct FwdSpecials {
    float xN, xJ, xB, xC, pmove, ploop;

    __device__ explicit FwdSpecials(uint64_t L) {
        pmove = div(3.0f, add(add(static_cast<float>(L), 2.0f), 1.0f));
        ploop = add(1.0f, -pmove);
        xN = 1.0f;
        xJ = 0.0f;
        xB = pmove;
        xC = 0.0f;
    }
    __device__ bool end_row(float xE, float* row_scale) {
        xN = mul(xN, ploop);
        xC = add(mul(xC, ploop), mul(xE, 0.5f));
        xJ = add(mul(xJ, ploop), mul(xE, 0.5f));
        xB = add(mul(xJ, pmove), mul(xN, pmove));
        if (!(xE > 1.0e4f)) return false;
        xN = div(xN, xE);
        xC = div(xC, xE);
        xJ = div(xJ, xE);
        xB = div(xB, xE);
        *row_scale = __double2float_rn(1.0 / static_cast<double>(xE));
        return true;
    }
};

}  // namespace fwd_device

__global__ void __launch_bounds__(128) fwd_kernel(FwdParams p) {
    using namespace fwd_device;
    const uint64_t tid = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const uint64_t g = tid / 4;
    const int z = static_cast<int>(tid % 4);
    if (g >= p.n) return;  // whole groups of four leave together
    const unsigned group = 0xFu << (threadIdx.x & 28u);
    const int Q = p.Q;
    const uint64_t st = p.stride;
    float* const Mx = p.dp + tid;
    float* const Dx = Mx + static_cast<uint64_t>(Q) * st;
    float* const Ix = Dx + static_cast<uint64_t>(Q) * st;
    for (int q = 0; q < Q; ++q) Mx[q * st] = Dx[q * st] = Ix[q * st] = 0.0f;
    const uint64_t L = p.off[g + 1] - p.off[g];
    const uint8_t* dsq = p.res + p.off[g];
    FwdSpecials sp(L);
    uint32_t nsc = 0;
    const float4* const tz = reinterpret_cast<const float4*>(p.trans) + z * 2;  // position q: tz[q * 8], tz[q * 8 + 1]
    const float* const ddz = p.trans + z * 8 + 7;                                // position q: ddz[q * 32]
    // Lane z takes lane z-1's value, lane 0 takes 0 (esl_sse_rightshift_ps).
    auto shift = [group, z](float v) {
        const float u = __shfl_up_sync(group, v, 1, 4);
        return z == 0 ? 0.0f : u;
    };
    for (uint64_t i = 0; i < L; ++i) {
        const float* const ez = p.emit + static_cast<uint64_t>(dsq[i]) * Q * 4 + z;
        float mpv = shift(Mx[(Q - 1) * st]);
        float dpv = shift(Dx[(Q - 1) * st]);
        float ipv = shift(Ix[(Q - 1) * st]);
        // M, I and the M->D part of D: independent across positions but for
        // the M sum, which is HMMER's lane accumulator in position order.
        float dcv = 0.0f, xEm = 0.0f;
        float mq = Mx[0], dq = Dx[0], iq = Ix[0];  // the previous row at q
#pragma unroll 4
        for (int q = 0; q < Q; ++q) {
            const float4 ta = __ldg(tz + q * 8), tb = __ldg(tz + q * 8 + 1);  // BM MM IM DM, MD MI II DD
            const float e = __ldg(ez + q * 4);
            float mn = 0.0f, dn = 0.0f, in = 0.0f;
            if (q + 1 < Q) {
                mn = Mx[(q + 1) * st];
                dn = Dx[(q + 1) * st];
                in = Ix[(q + 1) * st];
            }
            float sv = mul(sp.xB, ta.x);
            sv = add(sv, mul(mpv, ta.y));
            sv = add(sv, mul(ipv, ta.z));
            sv = add(sv, mul(dpv, ta.w));
            sv = mul(sv, e);
            xEm = add(xEm, sv);
            mpv = mq;
            dpv = dq;
            ipv = iq;
            Mx[q * st] = sv;
            Dx[q * st] = dcv;
            dcv = mul(sv, tb.x);
            Ix[q * st] = add(mul(mpv, tb.y), mul(ipv, tb.z));
            mq = mn;
            dq = dn;
            iq = in;
        }
        // D->D passes. Each also sums the D values it leaves onto the M sum
        // (HMMER adds the D's after the last pass, in position order): a
        // pass that changes nothing leaves every D as it was, so the sum of
        // the last pass run is the one HMMER takes.
        dcv = shift(dcv);
        Dx[0] = 0.0f;
        float xEv = xEm;
#pragma unroll 4
        for (int q = 0; q < Q; ++q) {
            const float d = add(dcv, Dx[q * st]);
            Dx[q * st] = d;
            xEv = add(d, xEv);
            dcv = mul(d, __ldg(ddz + q * 32));
        }
        for (int pass = 1; pass < 4; ++pass) {
            dcv = shift(dcv);
            bool changed = false;
            float sum = xEm;
#pragma unroll 4
            for (int q = 0; q < Q; ++q) {
                const float d0 = Dx[q * st];
                const float d = add(dcv, d0);
                changed |= d > d0;
                Dx[q * st] = d;
                sum = add(d, sum);
                dcv = mul(dcv, __ldg(ddz + q * 32));
            }
            xEv = sum;
            if (p.M >= 100 && !__any_sync(group, changed)) break;
        }
        const float pair = add(xEv, __shfl_xor_sync(group, xEv, 1, 4));  // lanes 0,1: e0+e1; 2,3: e2+e3
        const float xE = add(pair, __shfl_xor_sync(group, pair, 2, 4));  // (e0+e1)+(e2+e3), on every lane
        float r;
        if (sp.end_row(xE, &r)) {
            for (int q = 0; q < Q; ++q) {
                Mx[q * st] = mul(Mx[q * st], r);
                Dx[q * st] = mul(Dx[q * st], r);
                Ix[q * st] = mul(Ix[q * st], r);
            }
            if (z == 0) p.scales[p.off[g] + nsc] = xE;
            ++nsc;
        }
    }
    if (z == 0) {
        p.xc[g] = sp.xC;
        p.nscales[g] = nsc;
    }
}

}  // namespace warpdp
