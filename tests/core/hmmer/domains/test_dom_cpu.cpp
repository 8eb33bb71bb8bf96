// The vector forms of Forward, Backward, decoding and the optimal-accuracy
// fill (dom_cpu.hpp) compute the scalar references' numbers bit for bit:
// every cell, special, scale factor and score, on random models of every
// stripe shape (both sides of M = 100), multihit and unihit, full and parser
// matrices, including a Backward that takes its own scale factors and targets
// without a path. The vector forms write into matrices left full of NaN by
// a larger earlier use, so a cell they read before writing shows.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/hmmer/domains/dom_cpu.hpp"
#include "core/hmmer/domains/dom_decoding.hpp"
#include "core/hmmer/domains/dom_fwdback.hpp"
#include "core/hmmer/domains/dom_null2.hpp"
#include "core/hmmer/domains/dom_optacc.hpp"
#include "core/hmmer/domains/dom_stotrace.hpp"
#include "core/base/easel_random.hpp"
#include "core/hmmer/profile.hpp"
#include "dom_test_support.hpp"
#include "fwd_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

bool same_matrix(const DomMatrix& a, const DomMatrix& b) {
    if (a.M() != b.M() || a.L() != b.L() || a.full() != b.full()) return false;
    if (a.has_own_scales != b.has_own_scales || !same_score(a.totscale, b.totscale)) return false;
    for (uint64_t i = 0; i <= a.L(); ++i) {
        for (int s = 0; s < kDomSpecials; ++s)
            if (!same_score(a.x(i, static_cast<DomSpecial>(s)), b.x(i, static_cast<DomSpecial>(s)))) return false;
        if (!a.full() && i > 0) continue;
        for (int q = 0; q < a.Q(); ++q)
            for (DomCell c : {kDomM, kDomD, kDomI})
                for (int z = 0; z < kFwdLanes; ++z)
                    if (!same_score(a.cell(i, q, c)[z], b.cell(i, q, c)[z])) return false;
    }
    return true;
}

// A matrix whose storage holds NaN in every cell of a larger shape than
// the fills below ask for.
DomMatrix poisoned(int M, uint64_t L) {
    DomMatrix m;
    m.resize(M + 9, L + 5, true);
    for (uint64_t i = 0; i <= m.L(); ++i)
        for (int q = 0; q < m.Q(); ++q)
            for (DomCell c : {kDomM, kDomD, kDomI})
                for (int z = 0; z < kFwdLanes; ++z) m.cell(i, q, c)[z] = std::nanf("");
    return m;
}

void check_same(const FwdProfile& fp, const DomSpecialOdds& odds, const std::vector<uint8_t>& dsq) {
    for (bool full : {true, false}) {
        CAPTURE(full);
        DomMatrix f1, b1;
        DomMatrix f2 = poisoned(fp.M, dsq.size()), b2 = poisoned(fp.M, dsq.size());
        CHECK(same_score(dom_forward(fp, odds, dsq, f1, full), dom_forward_cpu(fp, odds, dsq, f2, full)));
        CHECK(same_matrix(f1, f2));
        CHECK(same_score(dom_backward(fp, odds, dsq, f1, b1, full), dom_backward_cpu(fp, odds, dsq, f1, b2, full)));
        CHECK(same_matrix(b1, b2));
        if (!full) continue;
        DomMatrix p1, p2 = poisoned(fp.M, dsq.size());
        CHECK(dom_decoding(odds, f1, b1, p1) == dom_decoding_cpu(odds, f1, b1, p2));
        CHECK(same_matrix(p1, p2));
        // In place, as the search decodes: bck becomes the posteriors.
        DomMatrix b3 = b1;
        CHECK(dom_decoding(odds, f1, b1, b1) == dom_decoding_cpu(odds, f1, b3, b3));
        CHECK(same_matrix(b1, b3));
    }
}

// A profile of M nodes where some nodes lack their insert state or their
// delete path (zero transitions), which the optimal-accuracy fill masks.
FwdProfile profile_with_gaps(int M) {
    Hmm h = random_vit_hmm(M, frand(1.0f, 20.0f));
    auto t = [&](int k) -> auto& { return h.t[static_cast<size_t>(k)]; };
    for (int k = 1; k < M; ++k) {
        if (uniform(0, 4) == 0) t(k)[kTMI] = t(k)[kTII] = t(k)[kTIM] = 0.0f;
        if (k + 1 < M && uniform(0, 4) == 0) t(k)[kTMD] = t(k)[kTDD] = t(k + 1)[kTDM] = t(k + 1)[kTDD] = 0.0f;
    }
    return build_fwd_profile(build_profile(h));
}

void check_same_oa(const FwdProfile& fp, const DomSpecialOdds& xo, const DomMatrix& pp) {
    DomMatrix o1, o2 = poisoned(fp.M, pp.L());
    CHECK(same_score(dom_optimal_accuracy(fp, xo, pp, o1), dom_optimal_accuracy_cpu(fp, xo, pp, o2)));
    CHECK(same_matrix(o1, o2));
}

}  // namespace

TEST_CASE("the vector Forward, Backward and decoding equal the scalar references bit for bit") {
    seed();
    int compared = 0;
    for (int M : {1, 2, 4, 5, 8, 9, 13, 57, 99, 100, 101, 180}) {
        CAPTURE(M);
        const Hmm h = random_vit_hmm(M, frand(1.0f, 40.0f));
        const FwdProfile fp = build_fwd_profile(build_profile(h));
        for (const auto& dsq : fwd_targets_for(h, 4, M > 150 ? 300 : 600)) {
            CAPTURE(dsq.size());
            for (bool multihit : {true, false}) {
                check_same(fp, dom_special_odds(dsq.size() + static_cast<size_t>(uniform(0, 50)), multihit), dsq);
                ++compared;
            }
        }
    }
    MESSAGE(compared << " (target, mode) pairs compared");
}

TEST_CASE("the vector forms equal the references where Backward takes its own scale factors") {
    for (uint64_t seed : {0u, 7u}) {
        const OwnScaleCase c = own_scale_case(seed);
        check_same(build_fwd_profile(c.prof), dom_special_odds(c.dsq.size(), false), c.dsq);
    }
}

TEST_CASE("the vector optimal-accuracy fill equals the scalar one bit for bit") {
    seed();
    int compared = 0;
    for (int M : {1, 2, 3, 4, 5, 8, 9, 13, 57, 99, 100, 101, 180}) {
        CAPTURE(M);
        for (int trial = 0; trial < 6; ++trial) {
            const FwdProfile fp = profile_with_gaps(M);
            const auto L = static_cast<uint64_t>(uniform(1, M > 100 ? 120 : 250));
            CAPTURE(L);
            for (bool multihit : {true, false}) {
                const DomSpecialOdds xo = dom_special_odds(L, multihit);
                check_same_oa(fp, xo, random_posteriors(M, L, trial % 2 == 0));
                ++compared;
            }
        }
        // Posteriors as decoding leaves them, from homologs and random targets.
        const Hmm h = random_vit_hmm(M, frand(1.0f, 40.0f));
        const FwdProfile fp = build_fwd_profile(build_profile(h));
        for (const auto& dsq : fwd_targets_for(h, 3, 300)) {
            CAPTURE(dsq.size());
            const DomSpecialOdds uni = dom_special_odds(dsq.size(), false);
            DomMatrix f, b;
            if (std::isnan(dom_forward(fp, uni, dsq, f, true)) || std::isnan(dom_backward(fp, uni, dsq, f, b, true)))
                continue;
            if (dom_decoding(uni, f, b, b) != DomDecodeStatus::ok) continue;
            check_same_oa(fp, uni, b);
            ++compared;
        }
    }
    MESSAGE(compared << " posterior matrices compared");
}

namespace {

// The vector null2 by trace against the plain one on steps zstart..zend,
// through buffers kept across calls (stale contents must not show).
void check_same_null2(const FwdProfile& fp, const DomTrace& tr, int zstart, int zend, std::vector<float>& null2,
                      std::vector<float>& scratch) {
    const Alphabet& amino = Alphabet::amino();
    const std::vector<float> want = dom_null2_by_trace(fp, amino, tr, zstart, zend);
    dom_null2_by_trace_cpu(fp, amino, tr, zstart, zend, null2, scratch);
    REQUIRE(null2.size() == want.size());
    for (size_t x = 0; x < want.size(); ++x) {
        CAPTURE(x);
        CHECK(same_score(null2[x], want[x]));
    }
}

// Steps in any order: random states, nodes 1..M, emitting or not.
DomTrace random_steps(int M, int n) {
    static constexpr DomState states[] = {kStM, kStI, kStD, kStN, kStC, kStJ, kStB, kStE, kStS, kStT};
    DomTrace tr;
    tr.M = M;
    for (int z = 0; z < n; ++z) {
        const DomState st = states[uniform(0, 9)];
        const bool node = st == kStM || st == kStI || st == kStD;
        tr.steps.push_back({st, node ? uniform(1, M) : 0, uniform(0, 2) == 0 ? 0 : uniform(1, 1000), 0.0f});
    }
    return tr;
}

}  // namespace

TEST_CASE("the vector null2 by trace equals the plain one bit for bit") {
    seed();
    std::vector<float> null2(40, std::numeric_limits<float>::quiet_NaN()), scratch(1000, 7.0f);
    int compared = 0;
    for (int M : {1, 2, 3, 4, 5, 8, 9, 13, 57, 99, 100, 101, 180}) {
        CAPTURE(M);
        const Hmm h = random_vit_hmm(M, frand(1.0f, 40.0f));
        const FwdProfile fp = build_fwd_profile(build_profile(h));
        // Sampled traces of homologs and random targets: each domain, the
        // whole trace, random ranges (some with no residue: NaN both ways).
        EaselRandom er(EaselRandom::Kind::fast, static_cast<uint32_t>(uniform(1, 1 << 30)));
        for (const auto& dsq : fwd_targets_for(h, 3, 300)) {
            CAPTURE(dsq.size());
            const DomSpecialOdds multi = dom_special_odds(dsq.size(), true);
            DomMatrix f;
            if (std::isnan(dom_forward(fp, multi, dsq, f, true))) continue;
            DomTrace tr;
            for (int t = 0; t < 4; ++t) {
                dom_stochastic_trace(er, fp, multi, f, tr);
                dom_trace_index(tr);
                const int last = static_cast<int>(tr.steps.size()) - 1;
                for (const DomTraceDomain& d : tr.domains) check_same_null2(fp, tr, d.tfrom, d.tto, null2, scratch);
                check_same_null2(fp, tr, 0, last, null2, scratch);
                check_same_null2(fp, tr, 0, 0, null2, scratch);
                const int a = uniform(0, last);
                check_same_null2(fp, tr, a, uniform(a, last), null2, scratch);
                compared += static_cast<int>(tr.domains.size()) + 3;
            }
        }
        // Steps in no path's order: nodes out of sequence, repeated, jumping.
        for (int t = 0; t < 20; ++t) {
            const DomTrace tr = random_steps(M, uniform(1, 3 * M + 5));
            const int last = static_cast<int>(tr.steps.size()) - 1;
            const int a = uniform(0, last);
            check_same_null2(fp, tr, a, uniform(a, last), null2, scratch);
            check_same_null2(fp, tr, 0, last, null2, scratch);
            compared += 2;
        }
    }
    MESSAGE(compared << " null2 vectors compared");
}
