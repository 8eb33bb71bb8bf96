// The CPU engine's lane kernels: W pairs that share read A (rows) run side by
// side, one pair per lane, so the compiler turns every lane loop into SIMD
// instructions. Each B read is padded to the longest B of the group; padded
// cells compute values nobody reads. Included by nw_lanes_base.cpp and
// nw_lanes_avx2.cpp, which instantiate it per instruction set.
#pragma once

#include <cstdint>
#include <vector>

#include "core/nw_forward.hpp"

namespace warpdp::nw_lanes {

inline constexpr int kNdistLanes = 16;
inline constexpr int kSeqdistLanes = 8;

// One group's B side, column-major: codes[(j - 1) * W + lane] for j = 1..max_lb.
struct Group {
    const uint8_t* a = nullptr;  // A's letter codes (metric-specific)
    uint32_t la = 0;
    uint32_t max_lb = 0;
    const uint8_t* b = nullptr;  // W * max_lb codes
    const uint32_t* lb = nullptr;  // W lengths
};

struct Scratch {
    std::vector<int32_t> key, counts;
    std::vector<double> f, cost;
    std::vector<int32_t> len;
    std::vector<uint8_t> move;
};

// NDist fast path: reads without a literal '-' and la + lb < 65,536, where a
// gap column's kind is its move and the counts fit 16 bits each.
template <int W>
void ndist(const Group& g, Scratch& s, double* out) {
    const size_t cols = size_t{g.max_lb} + 1;
    s.key.resize(cols * W);
    s.counts.resize(cols * W);
    int32_t* K = s.key.data();
    int32_t* S = s.counts.data();
    for (size_t j = 0; j < cols; ++j)
        for (int l = 0; l < W; ++l) K[j * W + l] = static_cast<int32_t>(12 * j) + nw_key::left, S[j * W + l] = 0;
    int32_t lbv[W];
    for (int l = 0; l < W; ++l) lbv[l] = static_cast<int32_t>(g.lb[l]);
    for (uint32_t i = 1; i <= g.la; ++i) {
        const int32_t ac = g.a[i - 1];
        const bool a_is_n = ac == nw_code::ndist_N;
        const int32_t gap_left = (i == g.la ? 0 : 12) + nw_key::left;
        int32_t dK[W], dS[W];
        for (int l = 0; l < W; ++l) {
            dK[l] = K[l], dS[l] = S[l];
            K[l] = static_cast<int32_t>(12 * i) + nw_key::up, S[l] = 0;
        }
        for (uint32_t j = 1; j <= g.max_lb; ++j) {
            const uint8_t* bc = g.b + size_t{j - 1} * W;
            int32_t* Kj = K + size_t{j} * W;
            int32_t* Sj = S + size_t{j} * W;
            const int32_t* Kl = Kj - W;
            const int32_t* Sl = Sj - W;
            for (int l = 0; l < W; ++l) {
                const int32_t y = bc[l];
                const int32_t uK = Kj[l], uS = Sj[l], lK = Kl[l], lS = Sl[l];
                const int32_t mis = y != ac;
                const int32_t dif = mis & !a_is_n & (y != nw_code::ndist_N);
                const int32_t kd = (dK[l] & ~3) + nw_key::diag + (mis << 3);
                const int32_t kl = (lK & ~3) + gap_left;
                const int32_t ku = (uK & ~3) + (static_cast<int32_t>(j) == lbv[l] ? 0 : 12);
                const int32_t k0 = kl < ku ? kl : ku;
                const int32_t k = kd < k0 ? kd : k0;
                const int32_t c = k & 3;
                const int32_t sd = dS[l] + 1 + (dif << 16);
                const int32_t sl = lS + ((lK & 3) != nw_key::left ? nw_key::one_run : 0);
                const int32_t su = uS + ((uK & 3) != nw_key::up ? nw_key::one_run : 0);
                const int32_t sg = c == nw_key::left ? sl : su;
                dK[l] = uK, dS[l] = uS;
                Kj[l] = k;
                Sj[l] = c == nw_key::diag ? sd : sg;
            }
        }
    }
    for (int l = 0; l < W; ++l) {
        const size_t at = size_t{g.lb[l]} * W + static_cast<size_t>(l);
        out[l] = ndist_from_counts(S[at], K[at] & 3, g.la, g.lb[l]);
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
