// The CPU engine's lane kernels: W pairs that share read A (rows) run side by
// side, one pair per lane, so the compiler turns every lane loop into SIMD
// instructions. Each B read is padded to the longest B of the group; padded
// cells compute values nobody reads. Included only by nw_lanes_base.cpp and
// nw_lanes_avx2.cpp (inside its AVX2 target region), which instantiate it
// per instruction set; everything here is local to the including file (an
// anonymous namespace), so the two copies never meet at link time.
#pragma once

#include <cstdint>

#include "core/nw/nw_lanes_kernels.hpp"

namespace warpdp::nw_lanes {
namespace {

[[gnu::always_inline]] inline I16 select16(I16 mask, I16 a, I16 b) { return (mask & a) | (~mask & b); }
[[gnu::always_inline]] inline I16 vmin(I16 a, I16 b) { return select16(a < b, a, b); }
[[gnu::always_inline]] inline I16 splat(int v) { return I16{} + static_cast<int16_t>(v); }

template <int W>
void ndist(const Group& g, Scratch& s, double* out) {
    static_assert(W == kNdistLanes, "the 16-bit lane kernel has kNdistLanes lanes");
    const size_t cols = size_t{g.max_lb} + 1;
    s.lanes.resize(cols * 3);  // key, differences, columns per column
    I16* K = s.lanes.data();
    I16* D = K + cols;
    I16* C = D + cols;
    for (size_t j = 0; j < cols; ++j) K[j] = splat(static_cast<int>(12 * j) + nw_key::left), D[j] = C[j] = splat(0);
    I16 lbv;
    for (int l = 0; l < W; ++l) lbv[l] = static_cast<int16_t>(g.lb[l]);
    const I16 three = splat(3), code_mask = ~three, one = splat(1), n_code = splat(nw_code::ndist_N);
    for (uint32_t i = 1; i <= g.la; ++i) {
        const I16 ac = splat(g.a[i - 1]);
        const I16 a_not_n = splat(g.a[i - 1] == nw_code::ndist_N ? 0 : -1);
        const I16 gap_left = splat((i == g.la ? 0 : 12) + nw_key::left);
        I16 dK = K[0], dD = D[0], dC = C[0];
        I16 lK = splat(static_cast<int>(12 * i) + nw_key::up), lD = splat(0), lC = splat(0);
        K[0] = lK, D[0] = lD, C[0] = lC;
        I16 jv = splat(0);
        for (uint32_t j = 1; j <= g.max_lb; ++j) {
            U8 bytes;
            __builtin_memcpy(&bytes, g.b + size_t{j - 1} * W, sizeof bytes);
            const I16 y = __builtin_convertvector(bytes, I16);
            jv += one;
            const I16 uK = K[j], uD = D[j], uC = C[j];
            const I16 mis = y != ac;
            const I16 dif = mis & a_not_n & (y != n_code);
            const I16 kd = (dK & code_mask) + nw_key::diag + (mis & 8);
            const I16 kl = (lK & code_mask) + gap_left;
            const I16 ku = (uK & code_mask) + (~(jv == lbv) & 12);
            const I16 k = vmin(kd, vmin(kl, ku));
            const I16 c = k & three;
            // A gap move opens a run (one difference, one column) unless it
            // extends a run of its own kind, i.e. its source cell's move.
            const I16 open_left = ((lK & three) != nw_key::left) & one;
            const I16 open_up = ((uK & three) != nw_key::up) & one;
            const I16 is_diag = c == nw_key::diag, is_left = c == nw_key::left;
            const I16 nD = select16(is_diag, dD + (dif & one), select16(is_left, lD + open_left, uD + open_up));
            const I16 nC = select16(is_diag, dC + one, select16(is_left, lC + open_left, uC + open_up));
            dK = uK, dD = uD, dC = uC;
            K[j] = lK = k, D[j] = lD = nD, C[j] = lC = nC;
        }
    }
    for (int l = 0; l < W; ++l) {
        const size_t at = g.lb[l];
        const int32_t counts = (int32_t{D[at][l]} << 16) | int32_t{C[at][l]};
        out[l] = ndist_from_counts(counts, K[at][l] & 3, g.la, g.lb[l]);
    }
}

// SeqDist in double lanes, the same operations in the same order as
// SeqDist (strict comparisons, one add per candidate, the free moves adding
// nothing at all).
using U8s = uint8_t __attribute__((vector_size(kSeqdistLanes)));
[[gnu::always_inline]] inline I64 select64(I64 mask, I64 a, I64 b) { return (mask & a) | (~mask & b); }
[[gnu::always_inline]] inline F64 select_double(I64 mask, F64 a, F64 b) {
    return reinterpret_cast<F64>(select64(mask, reinterpret_cast<I64>(a), reinterpret_cast<I64>(b)));
}

template <int W>
void seqdist(const Group& g, const SeqDistTable& t, Scratch& s, double* out) {
    static_assert(W == kSeqdistLanes, "the double lane kernel has kSeqdistLanes lanes");
    constexpr double gap = 15.0, homopolymer_gap = 4.0;
    const size_t cols = size_t{g.max_lb} + 1;
    s.f.resize(cols * W + 4 * size_t{g.max_lb} * W);
    s.len.resize(cols);
    F64* F = reinterpret_cast<F64*>(s.f.data());
    // Substitution cost of each column's B letters against each A letter.
    F64* cost = F + cols;
    for (int x = 0; x < 4; ++x)
        for (size_t j = 0; j < g.max_lb; ++j)
            for (int l = 0; l < W; ++l) cost[x * size_t{g.max_lb} + j][l] = t.at(x, g.b[j * W + static_cast<size_t>(l)]);
    I64* L = s.len.data();  // alignment length less free trailing moves
    for (size_t j = 0; j < cols; ++j) F[j] = F64{} + gap * static_cast<double>(j), L[j] = I64{} + static_cast<int64_t>(j);
    I64 lbv;
    for (int l = 0; l < W; ++l) lbv[l] = g.lb[l];
    const I64 one = I64{} + 1, zero = I64{}, none = I64{} + 4;
    const F64 hp_gap = F64{} + homopolymer_gap, plain_gap = F64{} + gap;
    for (uint32_t i = 1; i <= g.la; ++i) {
        const I64 ac = I64{} + g.a[i - 1];
        const bool last_row = i == g.la;
        const F64* cost_row = cost + static_cast<size_t>(g.a[i - 1]) * g.max_lb;
        F64 dF = F[0], lF = F64{} + gap * static_cast<double>(i);
        I64 dL = L[0], lL = I64{} + static_cast<int64_t>(i);
        F[0] = lF, L[0] = lL;
        // The letter of the column that entered the left neighbour (column 0:
        // an UP move consuming A[i-1]); 4 = none (a mismatched DIAG).
        I64 last = ac, jv = zero;
        for (uint32_t j = 1; j <= g.max_lb; ++j) {
            U8s bytes;
            __builtin_memcpy(&bytes, g.b + size_t{j - 1} * W, sizeof bytes);
            const I64 y = __builtin_convertvector(bytes, I64);
            jv += one;
            // Does B[j-1] extend the column that entered (i, j-1)?
            const F64 gcost = select_double(y == last, hp_gap, plain_gap);
            const F64 fu = F[j];
            const I64 uL = L[j];
            const F64 diag = dF + cost_row[j - 1];
            const F64 left = last_row ? lF : lF + gcost;
            const I64 last_col = jv == lbv;
            const F64 up = select_double(last_col, fu, fu + gcost);
            // DIAG if strictly below both, else LEFT if strictly below UP, else UP.
            const I64 d_lt_l = diag < left;
            const I64 is_diag = d_lt_l & (diag < up), is_left = ~d_lt_l & (left < up);
            const F64 dl = select_double(d_lt_l, diag, left);
            const F64 f = select_double(up < dl, up, dl);
            const I64 len_left = last_row ? lL : lL + one;
            const I64 len_up = uL + (~last_col & one);
            const I64 len = select64(is_diag, dL + one, select64(is_left, len_left, len_up));
            last = select64(is_diag, select64(y == ac, y, none), select64(is_left, y, ac));
            dF = fu, dL = uL;
            F[j] = lF = f, L[j] = lL = len;
        }
    }
    for (int l = 0; l < W; ++l) out[l] = F[g.lb[l]][l] / static_cast<double>(L[g.lb[l]][l]);
}

}  // namespace
}  // namespace warpdp::nw_lanes
