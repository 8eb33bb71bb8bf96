// Optimal-accuracy fill and traceback (docs/hmmer-filters.md §16.5): on
// random posterior matrices over tiny random models, the striped fill's score
// equals a plain DP over the same state graph, the traceback is a valid path
// whose summed probabilities are that score, and ties resolve as HMMER's do.
#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "core/hmmer/domains/dom_optacc.hpp"
#include "core/hmmer/profile.hpp"
#include "random_hmm.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// Transition odds of node k's slot, read back from the striped profile.
float trans(const FwdProfile& fp, int k, FwdTrans s) { return fp.t((k - 1) % fp.Q, s)[(k - 1) / fp.Q]; }
float& cell(DomMatrix& m, uint64_t i, int k, DomCell s) { return m.cell(i, (k - 1) % m.Q(), s)[(k - 1) / m.Q()]; }
float cell(const DomMatrix& m, uint64_t i, int k, DomCell s) { return m.cell(i, (k - 1) % m.Q(), s)[(k - 1) / m.Q()]; }

// A posterior matrix as decoding leaves it: values in eighths (so sums are
// exact and ties frequent), 0 in the padding lanes and row 0, J 0 unihit.
// M cells are never 0: a row whose every M is 0 would let HMMER's traceback
// end a domain in a padding lane (dom_oa_trace throws there). Unihit, N is
// never 0 either: there J scores 0 where it cannot be entered, and a B whose
// N is 0 on a row i >= 1 would go back to J.
DomMatrix random_posteriors(int M, uint64_t L, bool multihit) {
    DomMatrix pp;
    pp.resize(M, L, true);
    auto p = [] { return static_cast<float>(uniform(0, 8)) / 8.0f; };
    for (uint64_t i = 1; i <= L; ++i) {
        for (int k = 1; k <= M; ++k) {
            cell(pp, i, k, kDomM) = static_cast<float>(uniform(1, 8)) / 8.0f;
            cell(pp, i, k, kDomI) = p();
        }
        pp.x(i, kDomXN) = multihit ? p() : static_cast<float>(uniform(1, 8)) / 8.0f;
        pp.x(i, kDomXC) = p();
        pp.x(i, kDomXJ) = multihit ? p() : 0.0f;
    }
    return pp;
}

// The same optimisation written plainly, node by node, with -inf for every
// transition the profile forbids.
float plain_oa(const FwdProfile& fp, const DomSpecialOdds& xo, const DomMatrix& pp) {
    const int M = fp.M;
    const uint64_t L = pp.L();
    auto on = [](float t) { return t > 0.0f; };
    std::vector<float> Mp(static_cast<size_t>(M) + 1, kNegInf), Ip = Mp, Dp = Mp;
    float N = 0.0f, J = kNegInf, C = kNegInf, B = on(xo.n_move) ? 0.0f : kNegInf;
    for (uint64_t i = 1; i <= L; ++i) {
        std::vector<float> Mc(Mp.size(), kNegInf), Ic = Mc, Dc = Mc;
        float E = kNegInf;
        for (int k = 1; k <= M; ++k) {
            float m = on(trans(fp, k, kFBM)) ? B : kNegInf;
            if (k > 1) {
                if (on(trans(fp, k, kFMM))) m = std::max(m, Mp[static_cast<size_t>(k) - 1]);
                if (on(trans(fp, k, kFIM))) m = std::max(m, Ip[static_cast<size_t>(k) - 1]);
                if (on(trans(fp, k, kFDM))) m = std::max(m, Dp[static_cast<size_t>(k) - 1]);
                float d = kNegInf;
                if (on(trans(fp, k - 1, kFMD))) d = std::max(d, Mc[static_cast<size_t>(k) - 1]);
                if (on(trans(fp, k - 1, kFDD))) d = std::max(d, Dc[static_cast<size_t>(k) - 1]);
                Dc[static_cast<size_t>(k)] = d;
            }
            Mc[static_cast<size_t>(k)] = m + cell(pp, i, k, kDomM);
            float ins = kNegInf;
            if (on(trans(fp, k, kFMI))) ins = std::max(ins, Mp[static_cast<size_t>(k)]);
            if (on(trans(fp, k, kFII))) ins = std::max(ins, Ip[static_cast<size_t>(k)]);
            Ic[static_cast<size_t>(k)] = ins + cell(pp, i, k, kDomI);
            E = std::max({E, Mc[static_cast<size_t>(k)], Dc[static_cast<size_t>(k)]});
        }
        J = std::max(on(xo.j_loop) ? J + pp.x(i, kDomXJ) : kNegInf, on(xo.e_loop) ? E : kNegInf);
        C = std::max(on(xo.c_loop) ? C + pp.x(i, kDomXC) : kNegInf, on(xo.e_move) ? E : kNegInf);
        N = on(xo.n_loop) ? N + pp.x(i, kDomXN) : kNegInf;
        B = std::max(on(xo.n_move) ? N : kNegInf, on(xo.j_move) ? J : kNegInf);
        Mp.swap(Mc);
        Ip.swap(Ic);
        Dp.swap(Dc);
    }
    return C;
}

// A random amino model of M nodes in which some insert and delete states
// are cut off (every transition into and out of them 0), so the fill's
// masking of impossible transitions is exercised. (A state entered by a
// zero transition but left by a possible one is not: HMMER's fill scores
// such a model's impossible paths, and its traceback may take them.)
FwdProfile random_profile(int M) {
    Hmm h = random_hmm(M, rng());
    auto t = [&](int k) -> auto& { return h.t[static_cast<size_t>(k)]; };
    for (int k = 1; k < M; ++k) {
        if (uniform(0, 4) == 0) t(k)[kTMI] = t(k)[kTII] = t(k)[kTIM] = 0.0f;  // I_k
        if (k + 1 < M && uniform(0, 4) == 0)                                   // D_k+1
            t(k)[kTMD] = t(k)[kTDD] = t(k + 1)[kTDM] = t(k + 1)[kTDD] = 0.0f;
    }
    return build_fwd_profile(build_profile(h));
}

bool emits(const DomTraceStep& s) { return s.i > 0; }

// The trace is a path of the profile's state graph from S to T that emits
// residues 1..L once each, in order, recording each one's posterior.
void check_trace(const DomTrace& tr, const FwdProfile& fp, const DomSpecialOdds& xo, const DomMatrix& pp) {
    const auto& st = tr.steps;
    REQUIRE(st.size() >= 4);
    CHECK(st.front().st == kStS);
    CHECK(st[1].st == kStN);
    CHECK(st[st.size() - 2].st == kStC);
    CHECK(st.back().st == kStT);
    CHECK(tr.M == fp.M);
    CHECK(tr.L == static_cast<int64_t>(pp.L()));
    int64_t next = 1;
    for (size_t z = 0; z < st.size(); ++z) {
        const DomTraceStep& s = st[z];
        if (emits(s)) {
            CHECK(s.i == next);
            ++next;
            const auto i = static_cast<uint64_t>(s.i);
            const float want = s.st == kStM ? cell(pp, i, s.k, kDomM)
                               : s.st == kStI ? cell(pp, i, s.k, kDomI)
                               : s.st == kStN ? pp.x(i, kDomXN)
                               : s.st == kStC ? pp.x(i, kDomXC)
                                              : pp.x(i, kDomXJ);
            CHECK(s.pp == want);
        } else {
            CHECK(s.pp == 0.0f);
        }
        if (s.st == kStM || s.st == kStI) CHECK(emits(s));
        if (s.st == kStM || s.st == kStI || s.st == kStD) CHECK((s.k >= 1 && s.k <= fp.M));
        if (z + 1 == st.size()) break;
        const DomTraceStep& t = st[z + 1];
        CAPTURE(z);
        CAPTURE(static_cast<int>(s.st));
        CAPTURE(static_cast<int>(t.st));
        bool ok = false;
        switch (s.st) {
        case kStS: ok = t.st == kStN; break;
        case kStN: ok = (t.st == kStN && xo.n_loop > 0) || (t.st == kStB && xo.n_move > 0); break;
        case kStB: ok = t.st == kStM && trans(fp, t.k, kFBM) > 0; break;
        case kStM:
            ok = (t.st == kStM && t.k == s.k + 1 && trans(fp, t.k, kFMM) > 0) ||
                 (t.st == kStI && t.k == s.k && trans(fp, s.k, kFMI) > 0) ||
                 (t.st == kStD && t.k == s.k + 1 && trans(fp, s.k, kFMD) > 0) || t.st == kStE;
            break;
        case kStI:
            ok = (t.st == kStI && t.k == s.k && trans(fp, s.k, kFII) > 0) ||
                 (t.st == kStM && t.k == s.k + 1 && trans(fp, t.k, kFIM) > 0);
            break;
        case kStD:
            ok = (t.st == kStD && t.k == s.k + 1 && trans(fp, s.k, kFDD) > 0) ||
                 (t.st == kStM && t.k == s.k + 1 && trans(fp, t.k, kFDM) > 0) || t.st == kStE;
            break;
        case kStE: ok = (t.st == kStC && xo.e_move > 0) || (t.st == kStJ && xo.e_loop > 0); break;
        case kStJ: ok = (t.st == kStJ && xo.j_loop > 0) || (t.st == kStB && xo.j_move > 0); break;
        case kStC: ok = (t.st == kStC && xo.c_loop > 0) || t.st == kStT; break;
        default: break;
        }
        CHECK(ok);
    }
    CHECK(next == static_cast<int64_t>(pp.L()) + 1);
}

}  // namespace

TEST_CASE("the striped fill scores what a plain DP over the same states scores; the traceback is a valid path worth that score") {
    for (int trial = 0; trial < 400; ++trial) {
        const int M = uniform(1, 13);
        const auto L = static_cast<uint64_t>(uniform(1, 12));
        const bool multihit = uniform(0, 1) == 1;
        CAPTURE(trial);
        CAPTURE(M);
        CAPTURE(L);
        CAPTURE(multihit);
        const FwdProfile fp = random_profile(M);
        const DomSpecialOdds xo = dom_special_odds(L, multihit);
        const DomMatrix pp = random_posteriors(M, L, multihit);
        DomMatrix ox;
        const float oasc = dom_optimal_accuracy(fp, xo, pp, ox);
        CHECK(oasc == plain_oa(fp, xo, pp));  // eighths: every sum is exact

        DomTrace tr;
        dom_oa_trace(fp, xo, pp, ox, tr);
        check_trace(tr, fp, xo, pp);
        float sum = 0.0f;
        for (const auto& s : tr.steps) sum += s.pp;
        CHECK(sum == oasc);
        if (!multihit) CHECK(std::count_if(tr.steps.begin(), tr.steps.end(), [](const DomTraceStep& s) { return s.st == kStB; }) == 1);
    }
}

TEST_CASE("with arbitrary float posteriors the traceback still sums to the fill's score") {
    for (int trial = 0; trial < 100; ++trial) {
        const int M = uniform(1, 40);
        const auto L = static_cast<uint64_t>(uniform(1, 60));
        const bool multihit = uniform(0, 1) == 1;
        CAPTURE(trial);
        const FwdProfile fp = random_profile(M);
        const DomSpecialOdds xo = dom_special_odds(L, multihit);
        DomMatrix pp = random_posteriors(M, L, multihit);
        for (uint64_t i = 1; i <= L; ++i)
            for (int k = 1; k <= M; ++k) cell(pp, i, k, kDomM) *= 0.9f + static_cast<float>(uniform(0, 1000)) * 1e-4f;
        DomMatrix ox;
        const float oasc = dom_optimal_accuracy(fp, xo, pp, ox);
        CHECK(oasc == doctest::Approx(plain_oa(fp, xo, pp)).epsilon(1e-5));
        DomTrace tr;
        dom_oa_trace(fp, xo, pp, ox, tr);
        check_trace(tr, fp, xo, pp);
        float sum = 0.0f;
        for (const auto& s : tr.steps) sum += s.pp;
        CHECK(sum == doctest::Approx(oasc).epsilon(1e-5));
    }
}

TEST_CASE("ties: of equal M cells the later one in striped order ends the domain, and a D must be strictly better") {
    // M = 5, Q = 2: position 0 holds nodes 1, 3, 5 and position 1 nodes 2, 4.
    // Nodes 2 and 3 both reach 0.5 at the only residue; HMMER scans position
    // by position, so node 2 (position 1) comes after node 3 and wins. D(1,4)
    // reaches 0.5 too (from M3) but does not displace an equal M.
    const FwdProfile fp = build_fwd_profile(build_profile(random_hmm(5, rng())));
    REQUIRE(fp.Q == 2);
    const DomSpecialOdds xo = dom_special_odds(1, true);
    DomMatrix pp;
    pp.resize(5, 1, true);
    cell(pp, 1, 2, kDomM) = 0.5f;
    cell(pp, 1, 3, kDomM) = 0.5f;
    DomMatrix ox;
    CHECK(dom_optimal_accuracy(fp, xo, pp, ox) == 0.5f);
    CHECK(cell(ox, 1, 4, kDomD) == 0.5f);
    DomTrace tr;
    dom_oa_trace(fp, xo, pp, ox, tr);
    std::vector<DomState> states;
    for (const auto& s : tr.steps) states.push_back(s.st);
    CHECK(states == std::vector<DomState>{kStS, kStN, kStB, kStM, kStE, kStC, kStT});
    CHECK(tr.steps[3].k == 2);
    CHECK(tr.steps[3].i == 1);
    CHECK(tr.steps[3].pp == 0.5f);
}

TEST_CASE("the residue offset places an envelope's trace on the whole target") {
    const FwdProfile fp = random_profile(7);
    const DomSpecialOdds xo = dom_special_odds(9, false);
    const DomMatrix pp = random_posteriors(7, 9, false);
    DomMatrix ox;
    (void)dom_optimal_accuracy(fp, xo, pp, ox);
    DomTrace a, b;
    dom_oa_trace(fp, xo, pp, ox, a);
    dom_oa_trace(fp, xo, pp, ox, b, 40);
    REQUIRE(a.steps.size() == b.steps.size());
    for (size_t z = 0; z < a.steps.size(); ++z) {
        CHECK(b.steps[z].st == a.steps[z].st);
        CHECK(b.steps[z].i == (a.steps[z].i > 0 ? a.steps[z].i + 40 : 0));
    }
}
