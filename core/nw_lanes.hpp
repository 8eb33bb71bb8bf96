// The CPU engine's lane kernels: W pairs that share read A (rows) run side by
// side, one pair per lane, so the compiler turns every lane loop into SIMD
// instructions. Each B read is padded to the longest B of the group; padded
// cells compute values nobody reads. Included by nw_lanes_base.cpp and
// nw_lanes_avx2.cpp, which instantiate it per instruction set.
#pragma once

#include <cstdint>
#include <vector>

#include "core/nw_forward.hpp"

// The vector helpers below are always inlined; GCC's note that passing a
// 32-byte vector by value differs between the SSE2 and AVX2 ABIs is moot.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace warpdp::nw_lanes {

inline constexpr int kNdistLanes = 16;
inline constexpr int kSeqdistLanes = 8;

using I16 = int16_t __attribute__((vector_size(2 * kNdistLanes)));
using U8 = uint8_t __attribute__((vector_size(kNdistLanes)));

// One group's B side, column-major: codes[(j - 1) * W + lane] for j = 1..max_lb.
struct Group {
    const uint8_t* a = nullptr;  // A's letter codes (metric-specific)
    uint32_t la = 0;
    uint32_t max_lb = 0;
    const uint8_t* b = nullptr;  // W * max_lb codes
    const uint32_t* lb = nullptr;  // W lengths
};

struct Scratch {
    std::vector<I16> lanes;
    std::vector<double> f, cost;
    std::vector<int32_t> len;
    std::vector<uint8_t> move;
};

// NDist fast path, in 16-bit lanes: reads without a literal '-' and
// la + lb <= kNdistLaneMaxSum, where a gap column's kind is its move, keys
// (12 per gap, 4 bits of code room) stay below 32,768 and the counts fit.
inline constexpr uint32_t kNdistLaneMaxSum = 2730;

[[gnu::always_inline]] inline I16 select(I16 mask, I16 a, I16 b) { return (mask & a) | (~mask & b); }
[[gnu::always_inline]] inline I16 vmin(I16 a, I16 b) { return select(a < b, a, b); }
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
            const I16 nD = select(is_diag, dD + (dif & one), select(is_left, lD + open_left, uD + open_up));
            const I16 nC = select(is_diag, dC + one, select(is_left, lC + open_left, uC + open_up));
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

// SeqDist in doubles, same operations in the same order as SeqDist.
template <int W>
void seqdist(const Group& g, const SeqDistTable& t, Scratch& s, double* out) {
    constexpr double gap = 15.0, homopolymer_gap = 4.0;
    const size_t cols = size_t{g.max_lb} + 1;
    s.f.resize(cols * W);
    s.len.resize(cols * W);
    s.move.resize(cols * W);
    s.cost.resize(4 * size_t{g.max_lb} * W);
    // Substitution cost of every B letter against each possible A letter.
    for (int x = 0; x < 4; ++x)
        for (size_t k = 0; k < size_t{g.max_lb} * W; ++k) s.cost[x * size_t{g.max_lb} * W + k] = t.at(x, g.b[k]);
    double* F = s.f.data();
    int32_t* L = s.len.data();
    uint8_t* M = s.move.data();
    for (size_t j = 0; j < cols; ++j)
        for (int l = 0; l < W; ++l)
            F[j * W + l] = gap * static_cast<double>(j), L[j * W + l] = static_cast<int32_t>(j), M[j * W + l] = nw_key::left;
    int32_t lbv[W];
    for (int l = 0; l < W; ++l) lbv[l] = static_cast<int32_t>(g.lb[l]);
    for (uint32_t i = 1; i <= g.la; ++i) {
        const int32_t ac = g.a[i - 1];
        const bool last_row = i == g.la;
        const double* cost = s.cost.data() + static_cast<size_t>(ac) * g.max_lb * W;
        double dF[W];
        int32_t dL[W];
        for (int l = 0; l < W; ++l) {
            dF[l] = F[l], dL[l] = L[l];
            F[l] = gap * static_cast<double>(i), L[l] = static_cast<int32_t>(i), M[l] = nw_key::up;
        }
        for (uint32_t j = 1; j <= g.max_lb; ++j) {
            const uint8_t* bc = g.b + size_t{j - 1} * W;
            const uint8_t* bp = j >= 2 ? bc - W : bc;  // only read when the left move used B[j-2]
            const double* cj = cost + size_t{j - 1} * W;
            double* Fj = F + size_t{j} * W;
            int32_t* Lj = L + size_t{j} * W;
            uint8_t* Mj = M + size_t{j} * W;
            for (int l = 0; l < W; ++l) {
                const int32_t y = bc[l], yp = bp[l], lm = Mj[l - W];
                const bool hp = lm == nw_key::diag ? (ac == yp && y == ac) : lm == nw_key::left ? y == yp : y == ac;
                const double gcost = hp ? homopolymer_gap : gap;
                const double fu = Fj[l], fl = Fj[l - W];
                const double diag = dF[l] + cj[l];
                const double left = last_row ? fl : fl + gcost;
                const bool last_col = static_cast<int32_t>(j) == lbv[l];
                const double up = last_col ? fu : fu + gcost;
                const int32_t mv = diag < left ? (diag < up ? nw_key::diag : nw_key::up)
                                               : (left < up ? nw_key::left : nw_key::up);
                const double dl = diag < left ? diag : left;
                const double f = up < dl ? up : dl;
                const int32_t len_left = Lj[l - W] + (last_row ? 0 : 1);
                const int32_t len_up = Lj[l] + (last_col ? 0 : 1);
                const int32_t len = mv == nw_key::diag ? dL[l] + 1 : mv == nw_key::left ? len_left : len_up;
                dF[l] = fu, dL[l] = Lj[l];
                Fj[l] = f, Lj[l] = len, Mj[l] = static_cast<uint8_t>(mv);
            }
        }
    }
    for (int l = 0; l < W; ++l) {
        const size_t at = size_t{g.lb[l]} * W + static_cast<size_t>(l);
        out[l] = F[at] / static_cast<double>(L[at]);
    }
}

}  // namespace warpdp::nw_lanes
