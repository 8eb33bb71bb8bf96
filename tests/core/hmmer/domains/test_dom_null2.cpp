// null2 (docs/hmmer-filters.md §16.2): by expectation, each canonical
// residue's odds are the mean posterior usage of every emitting state times
// its emission odds (match odds from the profile, insert and N/J/C odds 1);
// by trace, the same with the states a trace segment visits counted, an
// insert counted at its node's match state as HMMER does; degenerate codes
// are the plain mean of their members' odds; gap, '*' and '~' are 1.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/hmmer/domains/dom_decoding.hpp"
#include "core/hmmer/domains/dom_fwdback.hpp"
#include "core/hmmer/domains/dom_null2.hpp"
#include "core/hmmer/profile.hpp"
#include "dom_test_support.hpp"
#include "fwd_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

const Alphabet& amino = Alphabet::amino();

double odds(const Profile& p, int k, int x) { return std::exp(static_cast<double>(p.match_score(k, x))); }

// Degenerate codes: the float mean of the members' values, in code order;
// the three non-residue codes 1.
void check_non_canonical(const std::vector<float>& null2) {
    REQUIRE(null2.size() == static_cast<size_t>(amino.Kp()));
    for (int x = amino.K() + 1; x < amino.Kp() - 2; ++x) {
        float sum = 0.0f;
        int n = 0;
        for (int y = 0; y < amino.K(); ++y)
            if (amino.degenerate_has(x, y)) sum += null2[static_cast<size_t>(y)], ++n;
        CHECK(null2[static_cast<size_t>(x)] == sum / static_cast<float>(n));
    }
    CHECK(null2[static_cast<size_t>(amino.gap_code())] == 1.0f);
    CHECK(null2[static_cast<size_t>(amino.nonresidue_code())] == 1.0f);
    CHECK(null2[static_cast<size_t>(amino.missing_code())] == 1.0f);
}

}  // namespace

TEST_CASE("null2 by expectation: mean posterior usage of each state times its emission odds") {
    seed();
    double worst = 0;
    for (int M : {1, 4, 9, 40, 120}) {
        for (bool multihit : {true, false}) {
            CAPTURE(M);
            CAPTURE(multihit);
            const Hmm h = random_vit_hmm(M, frand(1.0f, 20.0f));
            const Profile prof = build_profile(h);
            const FwdProfile fp = build_fwd_profile(prof);
            auto dsq = sample_homolog(h, 10);
            if (dsq.empty()) dsq.push_back(1);
            const DomSpecialOdds o = dom_special_odds(dsq.size() + 50, multihit);
            DomMatrix fwd, pp;
            if (std::isnan(dom_forward(fp, o, dsq, fwd, true))) continue;
            dom_backward(fp, o, dsq, fwd, pp, true);
            REQUIRE(dom_decoding(o, fwd, pp, pp) == DomDecodeStatus::ok);
            const auto null2 = dom_null2_by_expectation(fp, amino, pp);
            const double Ld = static_cast<double>(dsq.size());
            for (int x = 0; x < amino.K(); ++x) {
                double want = 0;
                for (uint64_t i = 1; i <= dsq.size(); ++i) {
                    want += (static_cast<double>(pp.x(i, kDomXN)) + pp.x(i, kDomXJ) + pp.x(i, kDomXC)) / Ld;
                    for (int k = 1; k <= M; ++k)
                        want += (striped(pp, i, k, kDomM) * odds(prof, k, x) + striped(pp, i, k, kDomI)) / Ld;
                }
                worst = std::max(worst, std::fabs(null2[static_cast<size_t>(x)] - want) / want);
                CHECK(std::fabs(null2[static_cast<size_t>(x)] - want) <= 1e-5 * want);
            }
            check_non_canonical(null2);
        }
    }
    MESSAGE("largest relative difference " << worst);
}

TEST_CASE("null2 by trace: the visited states counted, an insert at node k as match state k, N/J/C with odds 1") {
    seed();
    for (int M : {3, 9, 25}) {
        CAPTURE(M);
        const Profile prof = build_profile(random_vit_hmm(M, 3.0f));
        const FwdProfile fp = build_fwd_profile(prof);
        // A trace S N N B M1 .. with inserts and a deletion, E C C T; the
        // domain is B..E. Residue numbers only need to be non-zero.
        DomTrace tr;
        tr.M = M;
        int64_t i = 0;
        auto step = [&](DomState st, int k, bool emits) { tr.steps.push_back({st, k, emits ? ++i : 0, 0.0f}); };
        step(kStS, 0, false);
        step(kStN, 0, false);
        step(kStN, 0, true);
        step(kStB, 0, false);
        const int zb = static_cast<int>(tr.steps.size()) - 1;
        std::vector<int> used(static_cast<size_t>(M) + 1, 0);  // match-slot counts
        int Ld = 0;
        for (int k = 1; k <= M; ++k) {
            if (k == 2) { step(kStD, k, false); continue; }
            step(kStM, k, true), ++used[static_cast<size_t>(k)], ++Ld;
            if (k % 3 == 1 && k < M) step(kStI, k, true), ++used[static_cast<size_t>(k)], ++Ld;
        }
        step(kStE, 0, false);
        const int ze = static_cast<int>(tr.steps.size()) - 1;
        step(kStC, 0, false);
        step(kStC, 0, true);
        step(kStT, 0, false);

        const auto null2 = dom_null2_by_trace(fp, amino, tr, zb, ze);
        for (int x = 0; x < amino.K(); ++x) {
            double want = 0;
            for (int k = 1; k <= M; ++k) want += used[static_cast<size_t>(k)] * odds(prof, k, x) / Ld;
            CHECK(std::fabs(null2[static_cast<size_t>(x)] - want) <= 1e-5 * want);
        }
        check_non_canonical(null2);

        // The whole trace: the N and C residues count with odds 1.
        const auto whole = dom_null2_by_trace(fp, amino, tr, 0, static_cast<int>(tr.steps.size()) - 1);
        for (int x = 0; x < amino.K(); ++x) {
            double want = 2.0 / (Ld + 2);
            for (int k = 1; k <= M; ++k) want += used[static_cast<size_t>(k)] * odds(prof, k, x) / (Ld + 2);
            CHECK(std::fabs(whole[static_cast<size_t>(x)] - want) <= 1e-5 * want);
        }
        // Only flanking residues: the null model itself.
        const auto flank = dom_null2_by_trace(fp, amino, tr, 0, zb);
        for (int x = 0; x < amino.K(); ++x) CHECK(flank[static_cast<size_t>(x)] == 1.0f);
    }
}
