// Shared by the post-filter tests (tests/core/hmmer/domains): a textbook
// Forward/Backward in double-precision log space over HMMER's generic
// profile, with no striping, no rescaling and no float arithmetic of
// HMMER's, so the striped code is checked against an independent
// computation of the same quantities; and the conversions between striped
// cells and nodes.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_specials.hpp"
#include "core/hmmer/profile.hpp"
#include "random_hmm.hpp"
#include "test_support.hpp"
#include "vit_random.hpp"

namespace warpdp::test {

inline constexpr double kLogZero = -std::numeric_limits<double>::infinity();

inline double logadd(double a, double b) {
    if (a == kLogZero) return b;
    if (b == kLogZero) return a;
    return a > b ? a + std::log1p(std::exp(b - a)) : b + std::log1p(std::exp(a - b));
}
inline double ln(double v) { return v > 0 ? std::log(v) : kLogZero; }

// The lane and position of node k (1..M) in HMMER's striping.
inline int stripe_q(int k, int Q) { return (k - 1) % Q; }
inline int stripe_z(int k, int Q) { return (k - 1) / Q; }

// Forward and Backward matrices in log space: cells [i][k] for i = 0..L,
// k = 0..M+1 (0 and M+1 unused), specials [i], scores ln P.
struct Textbook {
    int M = 0;
    size_t L = 0;
    std::vector<std::vector<double>> fM, fI, fD, bM, bI, bD;
    std::vector<double> fN, fJ, fB, fE, fC, bN, bJ, bB, bE, bC;
    double fwd = kLogZero, bck = kLogZero;

    double post_M(size_t i, int k) const { return std::exp(fM[i][static_cast<size_t>(k)] + bM[i][static_cast<size_t>(k)] - fwd); }
    double post_I(size_t i, int k) const { return std::exp(fI[i][static_cast<size_t>(k)] + bI[i][static_cast<size_t>(k)] - fwd); }
    // N, J, C emitting residue i (a loop from row i-1 into row i).
    double post_loop(const std::vector<double>& f, const std::vector<double>& b, double loop, size_t i) const {
        return std::exp(f[i - 1] + ln(loop) + b[i] - fwd);
    }
    double post_B(size_t i) const { return std::exp(fB[i] + bB[i] - fwd); }
    double post_E(size_t i) const { return std::exp(fE[i] + bE[i] - fwd); }
};

// Local profile: B->M_k entries, D->E and M->E exits everywhere, insert
// odds 1, the special odds given (multihit or unihit, any length model).
inline Textbook textbook_fb(const Profile& p, const DomSpecialOdds& o, const std::vector<uint8_t>& dsq) {
    Textbook t;
    const int M = p.M;
    const size_t L = dsq.size();
    t.M = M;
    t.L = L;
    const auto cells = [&] { return std::vector<std::vector<double>>(L + 1, std::vector<double>(static_cast<size_t>(M) + 2, kLogZero)); };
    t.fM = cells(), t.fI = cells(), t.fD = cells(), t.bM = cells(), t.bI = cells(), t.bD = cells();
    for (auto* v : {&t.fN, &t.fJ, &t.fB, &t.fE, &t.fC, &t.bN, &t.bJ, &t.bB, &t.bE, &t.bC}) v->assign(L + 1, kLogZero);
    const auto tr = [&](int k, int s) -> double { return k >= 1 && k < M ? p.tsc[static_cast<size_t>(k)][static_cast<size_t>(s)] : kLogZero; };
    const auto em = [&](int k, size_t i) -> double { return p.match_score(k, dsq[i - 1]); };
    const auto tbm = [&](int k) -> double { return p.tbm[static_cast<size_t>(k)]; };

    t.fN[0] = 0.0;
    t.fB[0] = ln(o.n_move);
    for (size_t i = 1; i <= L; ++i) {
        double E = kLogZero;
        for (int k = 1; k <= M; ++k) {
            const auto ks = static_cast<size_t>(k);
            double s = t.fB[i - 1] + tbm(k);
            s = logadd(s, t.fM[i - 1][ks - 1] + tr(k - 1, kTMM));
            s = logadd(s, t.fI[i - 1][ks - 1] + tr(k - 1, kTIM));
            s = logadd(s, t.fD[i - 1][ks - 1] + tr(k - 1, kTDM));
            t.fM[i][ks] = s + em(k, i);
            t.fI[i][ks] = logadd(t.fM[i - 1][ks] + tr(k, kTMI), t.fI[i - 1][ks] + tr(k, kTII));
            t.fD[i][ks] = logadd(t.fM[i][ks - 1] + tr(k - 1, kTMD), t.fD[i][ks - 1] + tr(k - 1, kTDD));
            E = logadd(E, logadd(t.fM[i][ks], t.fD[i][ks]));
        }
        t.fE[i] = E;
        t.fN[i] = t.fN[i - 1] + ln(o.n_loop);
        t.fJ[i] = logadd(t.fJ[i - 1] + ln(o.j_loop), E + ln(o.e_loop));
        t.fC[i] = logadd(t.fC[i - 1] + ln(o.c_loop), E + ln(o.e_move));
        t.fB[i] = logadd(t.fN[i] + ln(o.n_move), t.fJ[i] + ln(o.j_move));
    }
    t.fwd = L ? t.fC[L] + ln(o.c_move) : kLogZero;

    for (size_t i = L; i >= 1; --i) {
        if (i == L) {
            t.bC[i] = ln(o.c_move);
        } else {
            double B = kLogZero;
            for (int k = 1; k <= M; ++k) B = logadd(B, tbm(k) + em(k, i + 1) + t.bM[i + 1][static_cast<size_t>(k)]);
            t.bB[i] = B;
            t.bC[i] = t.bC[i + 1] + ln(o.c_loop);
            t.bJ[i] = logadd(B + ln(o.j_move), t.bJ[i + 1] + ln(o.j_loop));
            t.bN[i] = logadd(B + ln(o.n_move), t.bN[i + 1] + ln(o.n_loop));
        }
        t.bE[i] = logadd(t.bC[i] + ln(o.e_move), t.bJ[i] + ln(o.e_loop));
        for (int k = M; k >= 1; --k) {
            const auto ks = static_cast<size_t>(k);
            const double next_m = i < L && k < M ? em(k + 1, i + 1) + t.bM[i + 1][ks + 1] : kLogZero;
            const double next_i = i < L ? t.bI[i + 1][ks] : kLogZero;
            t.bD[i][ks] = logadd(t.bE[i], logadd(tr(k, kTDM) + next_m, tr(k, kTDD) + t.bD[i][ks + 1]));
            t.bM[i][ks] = logadd(logadd(t.bE[i], tr(k, kTMM) + next_m), logadd(tr(k, kTMI) + next_i, tr(k, kTMD) + t.bD[i][ks + 1]));
            t.bI[i][ks] = logadd(tr(k, kTIM) + next_m, tr(k, kTII) + next_i);
        }
    }
    if (L) {
        double B = kLogZero;
        for (int k = 1; k <= M; ++k) B = logadd(B, tbm(k) + em(k, 1) + t.bM[1][static_cast<size_t>(k)]);
        t.bB[0] = B;
        t.bN[0] = logadd(B + ln(o.n_move), t.bN[1] + ln(o.n_loop));
        t.bck = t.bN[0];
    }
    return t;
}

// Value of node k's cell s in row i of a striped matrix.
inline float striped(const DomMatrix& mx, uint64_t i, int k, DomCell s) {
    return mx.cell(i, stripe_q(k, mx.Q()), s)[stripe_z(k, mx.Q())];
}

// A Backward that outgrows the Forward scale factors (HMMER's J3/119 case),
// fixed by `seed` so every run meets it: a model of 6 nodes whose match
// emission odds of code 5 are e^20, and a target of two runs of that code
// (2, then 6 residues) around 20 others. In unihit mode the second domain
// starts from an N that the first run's rescaling made small, so Forward
// rescales late in it, while Backward, divided by Forward's factors, gets a
// B above 1e16 before it. Seeds 0-6 keep every value in float range;
// with seed 7 Forward loses mass, and the decoding's scale product overflows.
struct OwnScaleCase {
    Profile prof;
    std::vector<uint8_t> dsq;
};
inline OwnScaleCase own_scale_case(uint64_t seed) {
    std::mt19937_64 g(seed);
    OwnScaleCase c;
    c.prof = build_profile(random_hmm(6, g, 1.0f));
    for (int k = 1; k <= c.prof.M; ++k) c.prof.msc[static_cast<size_t>(k) * static_cast<size_t>(c.prof.Kp) + 5] = 20.0f;
    c.dsq.assign(2, 5);
    for (int i = 0; i < 20; ++i) c.dsq.push_back(static_cast<uint8_t>(g() % 20 == 5 ? 4 : g() % 20));
    c.dsq.insert(c.dsq.end(), 6, 5);
    return c;
}

// Posteriors in [0, 1] in every lane (padding included): eighths, so that
// sums tie often, or arbitrary floats; some exact zeros.
inline DomMatrix random_posteriors(int M, uint64_t L, bool eighths) {
    DomMatrix pp;
    pp.resize(M, L, true);
    auto p = [&] {
        if (uniform(0, 9) == 0) return 0.0f;
        return eighths ? static_cast<float>(uniform(0, 8)) / 8.0f : frand(0.0f, 1.0f);
    };
    for (uint64_t i = 1; i <= L; ++i) {
        for (int q = 0; q < pp.Q(); ++q)
            for (int z = 0; z < kFwdLanes; ++z) {
                pp.cell(i, q, kDomM)[z] = p();
                pp.cell(i, q, kDomI)[z] = p();
            }
        for (DomSpecial s : {kDomXN, kDomXJ, kDomXC}) pp.x(i, s) = p();
    }
    return pp;
}

}  // namespace warpdp::test
