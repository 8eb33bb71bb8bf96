// The striped Smith-Waterman column loop (Farrar's layout; docs/sw.md §5),
// written once as a template over a small SIMD traits type S (lanes W,
// element T, add, subtract, max, shift by one lane, any-greater, horizontal
// max), instantiated by sw_striped_sse2.cpp and sw_striped_avx2.cpp (inside
// its AVX2 target region) for 16-bit lanes with saturating arithmetic and
// for 32-bit lanes. Internal to each of them (an anonymous namespace).
//
// Query position i sits in lane i / seg_len, segment i % seg_len. For each
// target residue, a first pass over the segments computes H and E and the
// gap in the target (F) within each lane's run of positions; then F is
// carried from each lane's last position into the next lane's first, pass
// after pass, until no lane's carried F can still raise an H or the F of
// the next position (carried - extend <= the first pass's H - open
// everywhere: the first pass's F there is already at least that, and both
// fall by extend a step). A raised H also raises that cell's E for the next column (a gap
// in the query may follow a gap in the target directly), and the maximum.
// Padding positions past the query's end score 0 against everything: each
// of their values is some real cell's value minus costs, so the maximum is
// unchanged.
#pragma once

#include <cstddef>
#include <cstdint>

namespace warpdp::sw_striped {
namespace {

// With TrackEnd, also the end of sw_traceback.hpp's rule: the first column
// j whose maximum beats every earlier column's (compared with the running
// best broadcast to every lane, not lane by lane), a copy of that column's
// H in the fourth scratch block, and in it the smallest query position
// holding the best score. end_i and end_j are untouched when the best is 0.
template <class S, bool TrackEnd>
int32_t striped(const typename S::T* __restrict profile, int seg_len, const uint8_t* __restrict target, uint64_t n,
                int gap_open, int gap_extend, typename S::T* __restrict scratch, uint64_t* end_i = nullptr,
                uint64_t* end_j = nullptr) {
    using V = typename S::V;
    using T = typename S::T;
    constexpr int W = S::W;
    const size_t Q = static_cast<size_t>(seg_len);
    T* h_store = scratch;
    T* h_load = scratch + Q * W;
    T* e_col = scratch + 2 * Q * W;
    const V zero = S::set1(0), neg_inf = S::set1(S::kNegInf);
    const V v_open = S::set1(static_cast<T>(gap_open)), v_ext = S::set1(static_cast<T>(gap_extend));
    for (size_t k = 0; k < Q * W; k += W) {
        S::store(h_store + k, zero);
        S::store(e_col + k, neg_inf);
    }
    V v_max = zero;
    T* end_col = scratch + 3 * Q * W;
    V v_best = zero;  // TrackEnd: the best so far in every lane
    for (uint64_t j = 0; j < n; ++j) {
        if constexpr (TrackEnd) v_max = zero;  // this column's maximum
        const T* p = profile + static_cast<size_t>(target[j]) * Q * W;
        // H of the previous column, one query position up: the last segment
        // shifted one lane, the border row's 0 entering lane 0.
        V vh = S::shift_up(S::load(h_store + (Q - 1) * W), zero);
        T* t = h_load;
        h_load = h_store;
        h_store = t;
        V vf = neg_inf;
        for (size_t s = 0; s < Q; ++s) {
            const size_t o = s * W;
            // H without F first: F's chain from one segment to the next is
            // then a subtract and a max (F' = max(F - extend, H - open) =
            // max(F - extend, (H without F) - open), as extend <= open).
            V ve = S::load(e_col + o);
            V vt = S::max(S::max(S::add(vh, S::load(p + o)), ve), zero);
            const V vt_open = S::sub(vt, v_open);
            vh = S::max(vt, vf);
            v_max = S::max(v_max, vh);
            S::store(h_store + o, vh);
            ve = S::max(S::sub(ve, v_ext), S::sub(vh, v_open));
            S::store(e_col + o, ve);
            vf = S::max(S::sub(vf, v_ext), vt_open);
            vh = S::load(h_load + o);
        }
        // Carry F across the lanes.
        for (int pass = 0; pass < W; ++pass) {
            vf = S::shift_up(vf, neg_inf);
            size_t s = 0;
            for (; s < Q; ++s) {
                const size_t o = s * W;
                const V vh_old = S::load(h_store + o);
                const V vh2 = S::max(vh_old, vf);
                S::store(h_store + o, vh2);
                v_max = S::max(v_max, vh2);
                S::store(e_col + o, S::max(S::load(e_col + o), S::sub(vh2, v_open)));
                vf = S::floor(S::sub(vf, v_ext), neg_inf);
                // The first pass's F of the next position is at least the
                // old H here minus open.
                if (!S::any_gt(vf, S::sub(vh_old, v_open))) break;
            }
            if (s < Q) break;
        }
        if constexpr (TrackEnd) {
            if (S::any_gt(v_max, v_best)) {
                v_best = S::set1(static_cast<T>(S::hmax(v_max)));
                for (size_t k = 0; k < Q * W; k += W) S::store(end_col + k, S::load(h_store + k));
                *end_j = j;
            }
        }
    }
    if constexpr (TrackEnd) {
        const int32_t best = S::hmax(v_best);
        if (best > 0) {
            uint64_t bi = ~uint64_t{0};
            for (size_t k = 0; k < Q * W; ++k)
                if (end_col[k] == best && (k % W) * Q + k / W < bi) bi = (k % W) * Q + k / W;
            *end_i = bi;
        }
        return best;
    }
    return S::hmax(v_max);
}

}  // namespace
}  // namespace warpdp::sw_striped
