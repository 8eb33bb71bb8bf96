// What the optimal-accuracy kernels share (docs/hmmer-filters.md §16.9): a
// launch's envelopes (DomOaJob), its parameters (DomOaParams) and the float
// operations of the fill, the traceback and null2. Explicit PTX on the
// device; plain C++ where the host emulation compiles the kernels
// (tests/kernels/dom/test_dom_optacc_emulated.cpp), which is the same IEEE
// arithmetic under the project's flags (no contraction, no fast math).
#pragma once

#include <cmath>
#include <cstdint>

#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_specials.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"
#include "kernels/dom/dom_layout.hpp"
#include "kernels/dom/dom_optacc_cuda.hpp"

namespace warpdp {

// One envelope of a launch: its posteriors' and OA matrix's offsets (floats),
// its traceback buffer, its null2 scratch, its model.
struct DomOaJob {
    uint64_t pp_cells, pp_specials, L;
    uint64_t ox_cells, ox_specials;
    uint64_t step_off, step_cap;
    uint64_t usage;  // floats from DomOaParams::usage: its model's Q * 8 + 3
    DomSpecialOdds odds;
    uint32_t model;  // index into DomOaParams::models
};

struct DomOaParams {
    const float* pp_cells;
    const float* pp_specials;
    const DomOaJob* jobs;
    uint32_t n;
    const float* trans;          // every model's FwdProfile::trans
    const float* emit;           // every model's FwdProfile::emit
    const DomModelDesc* models;  // where each model's are, and its M and Q
    int K;
    float* ox_cells;
    float* ox_specials;
    float* oasc;         // per job
    uint32_t* steps;     // per job from step_off: state | k << 4, T first
    float* step_pp;
    uint64_t* nsteps;    // per job: steps of the whole trace (may exceed step_cap)
    uint8_t* error;      // per job: a DomOaTraceError
    float* usage;        // null2: per job its model's Q * 8 + 3 floats of scratch, from DomOaJob::usage
    float* null2;        // per job K odds
};

namespace dom_oa_device {

constexpr float kNegInf = -__builtin_huge_valf();

#if defined(__CUDA_ARCH__)
__device__ __forceinline__ float add_ieee(float a, float b) {
    float r;
    asm("add.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
__device__ __forceinline__ float mul_ieee(float a, float b) {
    float r;
    asm("mul.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
#else
// The host emulation (tests/kernels/dom/test_dom_optacc_emulated.cpp): the
// project compiles without contraction or fast math, so these are IEEE too.
__device__ __forceinline__ float add_ieee(float a, float b) { return a + b; }
__device__ __forceinline__ float mul_ieee(float a, float b) { return a * b; }
#endif
__device__ __forceinline__ float flush(float v) { return (v < 1.17549435e-38f && v > -1.17549435e-38f) ? copysignf(0.0f, v) : v; }
// dom_lanes.hpp's add and mul: the IEEE result, denormals flushed.
__device__ __forceinline__ float add_fl(float a, float b) { return flush(add_ieee(a, b)); }
__device__ __forceinline__ float mul_fl(float a, float b) { return flush(mul_ieee(a, b)); }
__device__ __forceinline__ float vmax(float a, float b) { return a > b ? a : b; }  // _mm_max_ps
__device__ __forceinline__ float gate(float t, float v) { return t > 0.0f ? v : 0.0f; }

constexpr int kRow = kDomCells * kFwdLanes;  // floats of one striped position in a row

// The OA fill's special states of one row, as both fills compute them: N,
// J, C and B from the row's best M or D (E) and the posterior specials
// `ps`, written (with E and a zero scale) to `o` when o is not null.
struct DomOaSpecials {
    float xN = 0.0f, xJ = kNegInf, xB = 0.0f, xC = kNegInf;

    __device__ __forceinline__ void start(float* o) const {
        if (o) write(o, kNegInf);
    }
    __device__ __forceinline__ void row(const DomSpecialOdds& xo, const float* ps, float E, float* o) {
        float t1 = xo.j_loop == 0.0f ? 0.0f : add_ieee(xJ, ps[kDomXJ]);
        float t2 = xo.e_loop == 0.0f ? 0.0f : E;
        xJ = vmax(t1, t2);
        t1 = xo.c_loop == 0.0f ? 0.0f : add_ieee(xC, ps[kDomXC]);
        t2 = xo.e_move == 0.0f ? 0.0f : E;
        xC = vmax(t1, t2);
        xN = xo.n_loop == 0.0f ? 0.0f : add_ieee(xN, ps[kDomXN]);
        t1 = xo.n_move == 0.0f ? 0.0f : xN;
        t2 = xo.j_move == 0.0f ? 0.0f : xJ;
        xB = vmax(t1, t2);
        if (o) write(o, E);
    }
    __device__ __forceinline__ void write(float* o, float E) const {
        o[kDomXE] = E;
        o[kDomXN] = xN;
        o[kDomXJ] = xJ;
        o[kDomXB] = xB;
        o[kDomXC] = xC;
        o[kDomXScale] = 0.0f;
    }
};

}  // namespace dom_oa_device

}  // namespace warpdp
