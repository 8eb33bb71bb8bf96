// The stochastic traceback, step by step as HMMER's select_* functions
// (docs/hmmer-filters.md §16.3). Each choice multiplies the cells it comes
// from by the transition into the current cell, in float with
// flush-to-zero, normalizes with Easel's FNorm and draws with FChoose; E
// draws once and walks its row directly.
#include "core/hmmer/domains/dom_stotrace.hpp"

#include <array>

#include "core/base/errors.hpp"

namespace warpdp {

namespace {

class Sampler {
public:
    Sampler(EaselRandom& rng, const FwdProfile& prof, const DomSpecialOdds& odds, const DomMatrix& fwd)
        : rng_(rng), prof_(prof), odds_(odds), fwd_(fwd), Q_(fwd.Q()) {}

    // M(i,k) comes from B(i-1), M(i-1,k-1), I(i-1,k-1) or D(i-1,k-1).
    DomState from_m(int64_t i, int k) {
        need(i >= 1, "M at row 0");
        const int q = (k - 1) % Q_, r = (k - 1) / Q_;
        const auto prev = static_cast<uint64_t>(i - 1);
        std::array<float, 4> path = {
            mul(fwd_.x(prev, kDomXB), prof_.t(q, kFBM)[r]),
            mul(left(prev, q, r, kDomM), prof_.t(q, kFMM)[r]),
            mul(left(prev, q, r, kDomI), prof_.t(q, kFIM)[r]),
            mul(left(prev, q, r, kDomD), prof_.t(q, kFDM)[r]),
        };
        static constexpr std::array<DomState, 4> st = {kStB, kStM, kStI, kStD};
        return st[static_cast<size_t>(choose(path))];
    }

    // D(i,k) comes from M(i,k-1) or D(i,k-1).
    DomState from_d(int64_t i, int k) {
        const int q = (k - 1) % Q_, r = (k - 1) / Q_;
        const auto row = static_cast<uint64_t>(i);
        std::array<float, 2> path = {
            mul(left(row, q, r, kDomM), left_t(q, r, kFMD)),
            mul(left(row, q, r, kDomD), left_t(q, r, kFDD)),
        };
        return choose(path) == 0 ? kStM : kStD;
    }

    // I(i,k) comes from M(i-1,k) or I(i-1,k).
    DomState from_i(int64_t i, int k) {
        need(i >= 1, "I at row 0");
        const int q = (k - 1) % Q_, r = (k - 1) / Q_;
        const auto prev = static_cast<uint64_t>(i - 1);
        std::array<float, 2> path = {
            mul(fwd_.cell(prev, q, kDomM)[r], prof_.t(q, kFMI)[r]),
            mul(fwd_.cell(prev, q, kDomI)[r], prof_.t(q, kFII)[r]),
        };
        return choose(path) == 0 ? kStM : kStI;
    }

    // C(i) comes from C(i-1) or E(i); J(i) from J(i-1) or E(i). E's odds
    // carry the row's scale factor, which C and J were divided by.
    DomState from_c_or_j(int64_t i, DomSpecial x, float x_loop, float e_to_x) {
        need(i >= 1, "C or J at row 0");
        const auto row = static_cast<uint64_t>(i);
        std::array<float, 2> path = {
            mul(fwd_.x(row - 1, x), x_loop),
            mul(mul(fwd_.x(row, kDomXE), e_to_x), fwd_.x(row, kDomXScale)),
        };
        const DomState self = x == kDomXC ? kStC : kStJ;
        return choose(path) == 0 ? self : kStE;
    }

    // B(i) comes from N(i) or J(i).
    DomState from_b(int64_t i) {
        const auto row = static_cast<uint64_t>(i);
        std::array<float, 2> path = {
            mul(fwd_.x(row, kDomXN), odds_.n_move),
            mul(fwd_.x(row, kDomXJ), odds_.j_move),
        };
        return choose(path) == 0 ? kStN : kStJ;
    }

    // E(i) comes from any M(i,k) or D(i,k). xE is the row's normalizer: one
    // draw, then a running double sum over the cells times 1/xE (a double
    // quotient rounded to float), M before D at each striped position, lane
    // by lane. HMMER walks the row again, the sum still growing, if rounding
    // leaves it short of the draw.
    DomState from_e(int64_t i, int& k) {
        const auto row = static_cast<uint64_t>(i);
        const double roll = rng_.uniform();
        const auto norm = static_cast<float>(1.0 / static_cast<double>(fwd_.x(row, kDomXE)));
        double sum = 0.0;
        for (;;) {
            const double before = sum;
            for (int q = 0; q < Q_; ++q)
                for (DomCell c : {kDomM, kDomD}) {
                    const float* v = fwd_.cell(row, q, c);
                    for (int r = 0; r < kFwdLanes; ++r) {
                        sum += static_cast<double>(mul(v[r], norm));
                        if (roll < sum) {
                            k = r * Q_ + q + 1;
                            return c == kDomM ? kStM : kStD;
                        }
                    }
                }
            need(sum > before, "E row with no mass");
        }
    }

private:
    static float mul(float a, float b) noexcept { return flush_denormal(a * b); }
    static void need(bool ok, const char* what) {
        if (!ok) throw InternalError(std::string("dom_stochastic_trace: ") + what);
    }

    // Cell s of node k-1 in row i, for the node k at (q, r): the previous
    // striped position, or the last one shifted up a lane (0 below node 1).
    float left(uint64_t i, int q, int r, DomCell s) const {
        if (q > 0) return fwd_.cell(i, q - 1, s)[r];
        return r > 0 ? fwd_.cell(i, Q_ - 1, s)[r - 1] : 0.0f;
    }
    float left_t(int q, int r, FwdTrans s) const {
        if (q > 0) return prof_.t(q - 1, s)[r];
        return r > 0 ? prof_.t(Q_ - 1, s)[r - 1] : 0.0f;
    }

    // Normalize and Choose in their fixed-size forms (§16.3, equal to the bit).
    template <size_t N>
    int choose(std::array<float, N>& path) {
        easel_fnorm_fixed(path);
        return easel_fchoose_fixed(rng_, path);
    }

    EaselRandom& rng_;
    const FwdProfile& prof_;
    const DomSpecialOdds& odds_;
    const DomMatrix& fwd_;
    int Q_;
};

}  // namespace

void dom_stochastic_trace(EaselRandom& rng, const FwdProfile& prof, const DomSpecialOdds& odds,
                          const DomMatrix& fwd, DomTrace& tr) {
    if (!fwd.full() || fwd.M() != prof.M || fwd.Q() != prof.Q)
        throw InternalError("dom_stochastic_trace: needs a full Forward matrix of the profile");
    Sampler s(rng, prof, odds, fwd);
    tr.clear();
    const auto L = static_cast<int64_t>(fwd.L());
    int64_t i = L;
    int k = 0;
    dom_trace_append(tr, kStT, k, i);
    dom_trace_append(tr, kStC, k, i);
    DomState s0 = kStC;
    while (s0 != kStS) {
        DomState s1 = kStBogus;
        switch (s0) {
        case kStM: s1 = s.from_m(i, k); --k; --i; break;
        case kStD: s1 = s.from_d(i, k); --k; break;
        case kStI: s1 = s.from_i(i, k); --i; break;
        case kStN: s1 = i == 0 ? kStS : kStN; break;
        case kStC: s1 = s.from_c_or_j(i, kDomXC, odds.c_loop, odds.e_move); break;
        case kStJ: s1 = s.from_c_or_j(i, kDomXJ, odds.j_loop, odds.e_loop); break;
        case kStE: s1 = s.from_e(i, k); break;
        case kStB: s1 = s.from_b(i); break;
        default: throw InternalError("dom_stochastic_trace: bogus state");
        }
        dom_trace_append(tr, s1, k, i);
        // an N, C or J that loops has emitted residue i
        if ((s1 == kStN || s1 == kStJ || s1 == kStC) && s1 == s0) --i;
        s0 = s1;
    }
    tr.M = prof.M;
    tr.L = L;
    dom_trace_reverse(tr);
}

}  // namespace warpdp
