// The striped SSV and full-MSV loops, written once as templates over a small
// "Ops" struct of vector primitives and instantiated by each ISA translation
// unit (msv_striped_sse2_u8.cpp, msv_striped_avx2_u8.cpp). Internal linkage on purpose: each
// TU gets its own copy compiled for its own instruction set.
//
// SSV works on c = cell - xB0 >= 0 (docs/hmmer-filters.md §5.3 with the floor
// moved to 0), so each cell is max(0, c_diag + bias - cost): one saturating add and one
// saturating subtract (unsigned form), or one signed saturating add of a
// clamped score (signed form, c stored as c - 128). Saturation is harmless:
// the outcome only needs cmax exactly while cmax < T = 127 - bias, and any
// cmax >= T decides alone (overflow if xB0 >= 128, else full MSV). Cells
// below T are exact because their diagonal ancestors are all below T too and
// c + bias < 127 never clamps; the first cell to reach T is computed from an
// exact ancestor without clamping, so saturated values reach T exactly when
// the true ones do. Hence SSV keeps only a running max vector, no per-row
// horizontal work, and may stop as soon as any lane reaches T.
//
// Full MSV repeats the saturating byte ops of docs/hmmer-filters.md §5.2 cell
// for cell, so it is exact as is; the per-row horizontal max is only taken when
// some lane could raise xJ or overflow, which a compare-and-movemask rules out
// cheaply.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/hmmer/msv/msv_striped_kernels.hpp"

namespace warpdp::msv_striped {
namespace {

// Mirrors of kMsvOverflow, kSsvNoResult and kMsvBase (static_asserted equal
// in msv_cpu.cpp); repeated so this TU needs no std-template headers.
constexpr uint16_t kOverflow = 0xFFFF;
constexpr uint16_t kNoResult = 0xFFFE;
constexpr int kBase = 190;
// How many rows SSV runs between checks for an already-decided outcome.
constexpr size_t kSsvCheckRows = 64;

inline int sat8(int x) { return x < 0 ? 0 : (x > 255 ? 255 : x); }

// The tail of docs/hmmer-filters.md §5.3, given the exact cmax = xEmax - xB0
// (or any value >= T).
inline uint16_t ssv_decide(const StripedView& v, int tjb, int cmax) {
    const int xB0 = kBase - tjb - v.tbm;
    if (cmax >= 127 - v.bias) return xB0 - 128 >= 0 ? kOverflow : kNoResult;
    const int xEmax = xB0 + cmax;
    if (xEmax >= 255 - v.bias) return kOverflow;
    const int xJ = xEmax - v.tec;
    if (xJ > kBase) return kNoResult;  // the J state might have been used
    return static_cast<uint16_t>(xJ);
}

// SSV with the DP row in memory, for any Q.
template <class Ops>
uint16_t ssv_kernel(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t* row) {
    using V = typename Ops::V;
    if (tjb + v.tbm + v.tec + v.bias >= 127) return kNoResult;
    const int Q = v.Q;  // locals: the stores to dp[] may alias v as far as the compiler knows
    const typename Ops::Ssv ssv(v);
    const V* const prof0 = ssv.profile(v, 0);
    const int T = 127 - v.bias;
    V* dp = reinterpret_cast<V*>(row);
    for (int q = 0; q < Q; ++q) dp[q] = ssv.floor();
    V maxv = ssv.floor();
    for (size_t i = 0; i < L; ++i) {
        const V* prof = prof0 + static_cast<size_t>(dsq[i]) * Q;
        V mpv = ssv.shift(dp[Q - 1]);
        for (int q = 0; q < Q; ++q) {
            const V sv = ssv.step(mpv, prof[q]);
            maxv = ssv.max(maxv, sv);
            mpv = dp[q];
            dp[q] = sv;
        }
        if (i % kSsvCheckRows == kSsvCheckRows - 1 && ssv.any_ge(maxv, T)) return ssv_decide(v, tjb, T);
    }
    return ssv_decide(v, tjb, ssv.hmax(maxv));
}

// SSV for a small compile-time Q: the row lives in registers (up to ~12
// vectors; beyond that the compiler spills some, still cheaper than the
// generic loop), which removes the per-vector load/store and the loop
// overhead that dominate short rows (Q <= 16: M <= 256 with SSE2, 512 with AVX2).
template <class Ops, int NQ>
uint16_t ssv_kernel_fixed(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t*) {
    using V = typename Ops::V;
    if (tjb + v.tbm + v.tec + v.bias >= 127) return kNoResult;
    const typename Ops::Ssv ssv(v);
    const V* const prof0 = ssv.profile(v, 0);
    const int T = 127 - v.bias;
    V dp[NQ];
    for (int q = 0; q < NQ; ++q) dp[q] = ssv.floor();
    V maxv = ssv.floor();
    for (size_t i = 0; i < L; ++i) {
        const V* prof = prof0 + static_cast<size_t>(dsq[i]) * NQ;
        V mpv = ssv.shift(dp[NQ - 1]);
#pragma GCC unroll 16
        for (int q = 0; q < NQ; ++q) {
            const V sv = ssv.step(mpv, prof[q]);
            maxv = ssv.max(maxv, sv);
            mpv = dp[q];
            dp[q] = sv;
        }
        if (i % kSsvCheckRows == kSsvCheckRows - 1 && ssv.any_ge(maxv, T)) return ssv_decide(v, tjb, T);
    }
    return ssv_decide(v, tjb, ssv.hmax(maxv));
}

using KernelFn = uint16_t (*)(const StripedView&, const uint8_t*, size_t, int, uint8_t*);

// Picks the register-resident SSV for Q <= 16, else the in-memory one.
template <class Ops>
uint16_t ssv_dispatch(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t* row) {
    static constexpr KernelFn fixed[] = {&ssv_kernel<Ops>,
        &ssv_kernel_fixed<Ops, 1>,
        &ssv_kernel_fixed<Ops, 2>,
        &ssv_kernel_fixed<Ops, 3>,
        &ssv_kernel_fixed<Ops, 4>,
        &ssv_kernel_fixed<Ops, 5>,
        &ssv_kernel_fixed<Ops, 6>,
        &ssv_kernel_fixed<Ops, 7>,
        &ssv_kernel_fixed<Ops, 8>,
        &ssv_kernel_fixed<Ops, 9>,
        &ssv_kernel_fixed<Ops, 10>,
        &ssv_kernel_fixed<Ops, 11>,
        &ssv_kernel_fixed<Ops, 12>,
        &ssv_kernel_fixed<Ops, 13>,
        &ssv_kernel_fixed<Ops, 14>,
        &ssv_kernel_fixed<Ops, 15>,
        &ssv_kernel_fixed<Ops, 16>};
    const KernelFn f = v.Q < static_cast<int>(sizeof fixed / sizeof fixed[0]) ? fixed[v.Q] : fixed[0];
    return f(v, dsq, L, tjb, row);
}

template <class Ops>
uint16_t full_kernel(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t* row) {
    using V = typename Ops::V;
    const int Q = v.Q;
    const int bias = v.bias, tec = v.tec;
    const V* const cost0 = reinterpret_cast<const V*>(v.cost);
    V* dp = reinterpret_cast<V*>(row);
    const V zero = Ops::splat(0);
    for (int q = 0; q < Q; ++q) dp[q] = zero;
    const int tjbm = (tjb + v.tbm) & 255;
    const V biasv = Ops::splat(v.bias);
    int xJ = 0;
    V xBv = Ops::splat(sat8(kBase - tjbm));
    for (size_t i = 0; i < L; ++i) {
        const V* cost = cost0 + static_cast<size_t>(dsq[i]) * Q;
        V mpv = Ops::shift_in_zero(dp[Q - 1]);
        V xEv = zero;
        for (int q = 0; q < Q; ++q) {
            V sv = Ops::max_u(mpv, xBv);
            sv = Ops::subs_u(Ops::adds_u(sv, biasv), cost[q]);
            xEv = Ops::max_u(xEv, sv);
            mpv = dp[q];
            dp[q] = sv;
        }
        // Rows whose xE can neither overflow nor raise xJ change nothing.
        const int need = xJ + tec + 1 < 255 - bias ? xJ + tec + 1 : 255 - bias;
        if (!Ops::any_ge_u(xEv, need)) continue;
        int xE = Ops::hmax_u(xEv);
        if (xE >= 255 - bias) return kOverflow;
        xE = sat8(xE - tec);
        if (xE > xJ) {
            xJ = xE;
            xBv = Ops::splat(sat8((xJ > kBase ? xJ : kBase) - tjbm));
        }
    }
    return static_cast<uint16_t>(xJ);
}

}  // namespace
}  // namespace warpdp::msv_striped
