// The striped Viterbi-filter row loop (docs/hmmer-filters.md §6.2), written
// once as a template over a tiny SIMD traits type S (lanes W, saturating add, max,
// shift-by-one-lane, any-greater, horizontal max) and instantiated by
// vit_striped_sse2_i16.cpp and vit_striped_avx2_i16.cpp (the AVX2 one inside its target
// region). Internal to each of them (an anonymous namespace), so each
// instruction set gets its own copy and nothing compiled for AVX2 can leak
// into SSE2 code.
//
// D->D is an exact max-plus closure: a first in-segment pass, then wrapped
// passes until no lane of the carried D candidate beats the stored value
// (at most W passes). The saturating adds and maxes are monotone, so the
// order of the passes cannot change any value.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/hmmer/vit/vit_profile.hpp"

namespace warpdp::vit_striped {
namespace {

template <class S>
uint32_t score(const int16_t* __restrict trans, const int16_t* __restrict emit, int Q, int16_t* __restrict rows,
               const uint8_t* __restrict dsq, uint64_t L,
               int ncj) {
    using V = typename S::V;
    constexpr int W = S::W;
    constexpr int T = kVitNumTrans;
    const size_t QW = static_cast<size_t>(Q) * W;
    int16_t* Mr = rows;
    int16_t* Ir = rows + QW;
    int16_t* Dr = rows + 2 * QW;
    const V ninf = S::set1(kWordNegInf);
    for (size_t j = 0; j < 3 * QW; j += W) S::store(rows + j, ninf);

    const int xN = kVitBase;
    int xB = xN + ncj;
    int xC = kWordNegInf, xJ = kWordNegInf;
    for (uint64_t i = 0; i < L; ++i) {
        const int16_t* e = emit + static_cast<size_t>(dsq[i]) * QW;
        const V xBv = S::set1(static_cast<int16_t>(xB));
        // Row i-1 values of node k-1 for the first vector come from the last one, one lane down.
        V mpv = S::shift_up(S::load(Mr + QW - W));
        V ipv = S::shift_up(S::load(Ir + QW - W));
        V dpv = S::shift_up(S::load(Dr + QW - W));
        V xEv = ninf, dcv = ninf;
        for (int q = 0; q < Q; ++q) {
            const int16_t* t = trans + static_cast<size_t>(q) * T * W;
            const size_t o = static_cast<size_t>(q) * W;
            V sv = S::adds(xBv, S::load(t + kVBM * W));
            sv = S::max(sv, S::adds(mpv, S::load(t + kVMM * W)));
            sv = S::max(sv, S::adds(ipv, S::load(t + kVIM * W)));
            sv = S::max(sv, S::adds(dpv, S::load(t + kVDM * W)));
            sv = S::adds(sv, S::load(e + o));
            xEv = S::max(xEv, sv);
            // Read row i-1 of this vector before overwriting it.
            const V mq = S::load(Mr + o), iq = S::load(Ir + o), dq = S::load(Dr + o);
            S::store(Mr + o, sv);
            S::store(Dr + o, dcv);
            S::store(Ir + o, S::max(S::adds(mq, S::load(t + kVMI * W)), S::adds(iq, S::load(t + kVII * W))));
            dcv = S::max(S::adds(sv, S::load(t + kVMD * W)), S::adds(dcv, S::load(t + kVDD * W)));
            mpv = mq;
            ipv = iq;
            dpv = dq;
        }
        // Carry D across segment boundaries until nothing changes.
        for (int pass = 0; pass < W; ++pass) {
            dcv = S::shift_up(dcv);
            int q = 0;
            for (; q < Q; ++q) {
                const size_t o = static_cast<size_t>(q) * W;
                const V d = S::load(Dr + o);
                if (!S::any_gt(dcv, d)) break;
                S::store(Dr + o, S::max(d, dcv));
                dcv = S::adds(dcv, S::load(trans + static_cast<size_t>(q) * T * W + kVDD * W));
            }
            if (q < Q) break;
        }
        const int xE = S::hmax(xEv);
        if (xE >= 32767) return kVitOverflow;
        xC = xC > xE + kVitEMove ? xC : xE + kVitEMove;
        xJ = xJ > xE + kVitEMove ? xJ : xE + kVitEMove;
        xB = xJ + ncj > xN + ncj ? xJ + ncj : xN + ncj;
    }
    if (xC <= kWordNegInf) return kVitNoPath;
    return static_cast<uint32_t>(xC + 32768);
}

}  // namespace
}  // namespace warpdp::vit_striped
