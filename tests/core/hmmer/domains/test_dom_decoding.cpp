// Posterior decoding (docs/hmmer-filters.md §16.2): each residue is emitted
// by exactly one state, so a row's posteriors (M and I cells, N, J, C) sum
// to 1; they equal the textbook F * B / P; decoding in place (HMMER's
// p7_Decoding(om, fwd, bck, bck)) gives the same bits; the domain decoding's
// mocc, btot and etot are the textbook's expectations and the same from
// parser and full matrices; an infinite scale product is reported as
// HMMER's range error.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/hmmer/domains/dom_decoding.hpp"
#include "core/hmmer/domains/dom_fwdback.hpp"
#include "core/hmmer/profile.hpp"
#include "dom_test_support.hpp"
#include "fwd_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

struct Case {
    Profile prof;
    FwdProfile fp;
    std::vector<uint8_t> dsq;
    DomSpecialOdds odds;
};

// Random models and targets (homologs included), multihit and unihit, with
// the length model of a longer whole target.
std::vector<Case> random_cases() {
    std::vector<Case> cs;
    for (int M : {1, 2, 5, 8, 9, 30, 100, 131}) {
        const Hmm h = random_vit_hmm(M, frand(1.0f, 30.0f));
        for (int rep = 0; rep < 4; ++rep) {
            Case c;
            c.prof = build_profile(h);
            c.fp = build_fwd_profile(c.prof);
            c.dsq = rep % 2 ? sample_homolog(h, 30) : random_vit_codes(static_cast<size_t>(uniform(1, 200)), 3);
            if (c.dsq.empty()) c.dsq.push_back(0);
            c.odds = dom_special_odds(c.dsq.size() + static_cast<size_t>(uniform(0, 100)), rep < 2);
            cs.push_back(std::move(c));
        }
    }
    return cs;
}

}  // namespace

TEST_CASE("posterior decoding: each row sums to 1 and equals the textbook F * B / P") {
    seed();
    double worst_sum = 0, worst_cell = 0;
    int decoded = 0;
    for (const Case& c : random_cases()) {
        CAPTURE(c.prof.M);
        CAPTURE(c.dsq.size());
        DomMatrix fwd, bck, pp;
        const float f = dom_forward(c.fp, c.odds, c.dsq, fwd, true);
        dom_backward(c.fp, c.odds, c.dsq, fwd, bck, true);
        if (std::isnan(f)) continue;
        REQUIRE(dom_decoding(c.odds, fwd, bck, pp) == DomDecodeStatus::ok);
        const Textbook tb = textbook_fb(c.prof, c.odds, c.dsq);
        for (uint64_t i = 1; i <= c.dsq.size(); ++i) {
            double sum = static_cast<double>(pp.x(i, kDomXN)) + pp.x(i, kDomXJ) + pp.x(i, kDomXC);
            CHECK(pp.x(i, kDomXE) == 0.0f);
            CHECK(pp.x(i, kDomXB) == 0.0f);
            for (int k = 1; k <= c.prof.M; ++k) {
                sum += static_cast<double>(striped(pp, i, k, kDomM)) + striped(pp, i, k, kDomI);
                CHECK(striped(pp, i, k, kDomD) == 0.0f);
                worst_cell = std::max({worst_cell, std::fabs(striped(pp, i, k, kDomM) - tb.post_M(i, k)),
                                       std::fabs(striped(pp, i, k, kDomI) - tb.post_I(i, k))});
            }
            worst_cell = std::max({worst_cell, std::fabs(pp.x(i, kDomXN) - tb.post_loop(tb.fN, tb.bN, c.odds.n_loop, i)),
                                   std::fabs(pp.x(i, kDomXJ) - tb.post_loop(tb.fJ, tb.bJ, c.odds.j_loop, i)),
                                   std::fabs(pp.x(i, kDomXC) - tb.post_loop(tb.fC, tb.bC, c.odds.c_loop, i))});
            worst_sum = std::max(worst_sum, std::fabs(sum - 1.0));
        }
        ++decoded;
    }
    MESSAGE(decoded << " targets decoded; largest |row sum - 1| " << worst_sum << ", largest cell difference " << worst_cell);
    CHECK(decoded > 20);
    CHECK(worst_sum < 1e-4);
    CHECK(worst_cell < 1e-4);
}

TEST_CASE("decoding into the Backward matrix itself gives the same bits as into another matrix") {
    seed();
    for (const Case& c : random_cases()) {
        DomMatrix fwd, bck, pp;
        if (std::isnan(dom_forward(c.fp, c.odds, c.dsq, fwd, true))) continue;
        dom_backward(c.fp, c.odds, c.dsq, fwd, bck, true);
        const auto st = dom_decoding(c.odds, fwd, bck, pp);
        CHECK(dom_decoding(c.odds, fwd, bck, bck) == st);
        bool same = true;
        for (uint64_t i = 0; i <= c.dsq.size(); ++i) {
            for (int q = 0; q < pp.Q(); ++q)
                for (DomCell s : {kDomM, kDomD, kDomI})
                    for (int z = 0; z < 4; ++z) same = same && same_score(pp.cell(i, q, s)[z], bck.cell(i, q, s)[z]);
            for (DomSpecial s : {kDomXE, kDomXN, kDomXJ, kDomXB, kDomXC}) same = same && same_score(pp.x(i, s), bck.x(i, s));
        }
        CHECK(same);
    }
}

TEST_CASE("domain decoding: mocc, btot and etot are the textbook's expectations, alike from parser and full matrices") {
    seed();
    double worst = 0;
    for (const Case& c : random_cases()) {
        CAPTURE(c.prof.M);
        CAPTURE(c.dsq.size());
        DomMatrix ff, bf, fpar, bpar, pp;
        if (std::isnan(dom_forward(c.fp, c.odds, c.dsq, ff, true))) continue;
        dom_backward(c.fp, c.odds, c.dsq, ff, bf, true);
        dom_forward(c.fp, c.odds, c.dsq, fpar, false);
        dom_backward(c.fp, c.odds, c.dsq, fpar, bpar, false);
        DomOccupancy full, par;
        REQUIRE(dom_domain_decoding(c.odds, ff, bf, full) == DomDecodeStatus::ok);
        REQUIRE(dom_domain_decoding(c.odds, fpar, bpar, par) == DomDecodeStatus::ok);
        const Textbook tb = textbook_fb(c.prof, c.odds, c.dsq);
        double btot = 0, etot = 0;
        bool same = true;
        for (size_t i = 1; i <= c.dsq.size(); ++i) {
            same = same && same_score(full.mocc[i], par.mocc[i]) && same_score(full.btot[i], par.btot[i]) &&
                   same_score(full.etot[i], par.etot[i]);
            btot += tb.post_B(i - 1);  // a domain starting at residue i leaves B at row i-1
            etot += tb.post_E(i);
            const double mocc = 1.0 - tb.post_loop(tb.fN, tb.bN, c.odds.n_loop, i) - tb.post_loop(tb.fJ, tb.bJ, c.odds.j_loop, i) -
                                tb.post_loop(tb.fC, tb.bC, c.odds.c_loop, i);
            worst = std::max({worst, std::fabs(full.mocc[i] - mocc), std::fabs(full.btot[i] - btot) / std::max(1.0, btot),
                              std::fabs(full.etot[i] - etot) / std::max(1.0, etot)});
        }
        CHECK(same);
        CHECK(full.btot[0] == 0.0f);
        CHECK(full.etot[0] == 0.0f);
        CHECK(full.mocc[0] == 0.0f);
    }
    MESSAGE("largest difference from the textbook expectations " << worst);
    CHECK(worst < 1e-4);
}

TEST_CASE("an infinite scale product is HMMER's range error, for both decodings") {
    // Hand-made specials: a Backward N(0) whose reciprocal overflows a float.
    DomMatrix fwd, bck, pp;
    fwd.resize(4, 3, true);
    bck.resize(4, 3, true);
    for (uint64_t i = 0; i <= 3; ++i) {
        fwd.x(i, kDomXScale) = bck.x(i, kDomXScale) = 1.0f;
        for (DomSpecial s : {kDomXN, kDomXB, kDomXE, kDomXJ, kDomXC}) fwd.x(i, s) = bck.x(i, s) = 0.5f;
    }
    const DomSpecialOdds odds = dom_special_odds(3, true);
    DomOccupancy occ;
    CHECK(dom_decoding(odds, fwd, bck, pp) == DomDecodeStatus::ok);
    CHECK(dom_domain_decoding(odds, fwd, bck, occ) == DomDecodeStatus::ok);
    bck.x(0, kDomXN) = 1e-39f;
    CHECK(dom_decoding(odds, fwd, bck, pp) == DomDecodeStatus::overflow);
    CHECK(dom_domain_decoding(odds, fwd, bck, occ) == DomDecodeStatus::overflow);
    // Backward with its own factors: the ratio of the two factors of each
    // row accumulates, and a Forward factor far above Backward's overflows it.
    bck.x(0, kDomXN) = 0.5f;
    bck.has_own_scales = true;
    fwd.x(1, kDomXScale) = 3e38f;
    fwd.x(2, kDomXScale) = 3e38f;
    CHECK(dom_decoding(odds, fwd, bck, pp) == DomDecodeStatus::overflow);
    CHECK(dom_domain_decoding(odds, fwd, bck, occ) == DomDecodeStatus::overflow);
    bck.has_own_scales = false;  // the same factors, used as Forward's: no ratio
    CHECK(dom_decoding(odds, fwd, bck, pp) == DomDecodeStatus::ok);
}

TEST_CASE("with Backward's own scale factors the posteriors still sum to 1 per row, or the product overflows") {
    for (uint64_t seed : {0u, 1u, 2u, 7u}) {
        CAPTURE(seed);
        const OwnScaleCase c = own_scale_case(seed);
        const FwdProfile fp = build_fwd_profile(c.prof);
        const DomSpecialOdds odds = dom_special_odds(c.dsq.size(), false);
        DomMatrix fwd, bck, pp;
        dom_forward(fp, odds, c.dsq, fwd, true);
        dom_backward(fp, odds, c.dsq, fwd, bck, true);
        REQUIRE(bck.has_own_scales);
        if (seed == 7) {  // Forward's float range fell short: HMMER's range error
            CHECK(dom_decoding(odds, fwd, bck, pp) == DomDecodeStatus::overflow);
            continue;
        }
        REQUIRE(dom_decoding(odds, fwd, bck, pp) == DomDecodeStatus::ok);
        const Textbook tb = textbook_fb(c.prof, odds, c.dsq);
        double worst = 0;
        for (uint64_t i = 1; i <= c.dsq.size(); ++i) {
            double sum = static_cast<double>(pp.x(i, kDomXN)) + pp.x(i, kDomXJ) + pp.x(i, kDomXC);
            for (int k = 1; k <= c.prof.M; ++k) {
                sum += static_cast<double>(striped(pp, i, k, kDomM)) + striped(pp, i, k, kDomI);
                worst = std::max(worst, std::fabs(striped(pp, i, k, kDomM) - tb.post_M(i, k)));
            }
            CHECK(std::fabs(sum - 1.0) < 1e-4);
        }
        CHECK(worst < 1e-4);
    }
}
