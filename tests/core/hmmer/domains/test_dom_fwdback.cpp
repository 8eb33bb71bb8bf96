// Forward and Backward of the post-filter stages (docs/hmmer-filters.md
// §16.2): on whole targets in multihit mode the parser Forward is the
// Forward filter's score bit for bit; on tiny models both equal the sum
// over every state path, enumerated one by one; on random models they
// equal a textbook log-space Forward/Backward, multihit and unihit, over
// whole targets and pieces of them scored with the whole target's length
// model; a Backward whose values outgrow the Forward scale factors takes its
// own; and HMMER's range errors give NaN.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "core/hmmer/domains/dom_fwdback.hpp"
#include "core/hmmer/fwd/fwd_reference.hpp"
#include "core/hmmer/profile.hpp"
#include "dom_test_support.hpp"
#include "fwd_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

// The probability of every path that emits dsq, summed path by path: a
// recursion over (state, node, residues emitted) with no table, so each
// path is walked on its own.
double all_paths(const Profile& p, const DomSpecialOdds& o, const std::vector<uint8_t>& dsq) {
    const int M = p.M;
    const size_t L = dsq.size();
    const auto t = [&](int k, int s) { return k >= 1 && k < M ? std::exp(static_cast<double>(p.tsc[static_cast<size_t>(k)][static_cast<size_t>(s)])) : 0.0; };
    const auto e = [&](int k, size_t i) { return std::exp(static_cast<double>(p.match_score(k, dsq[i]))); };  // emits residue i+1
    enum St { N, B, Mt, It, Dt, E, J, C };
    std::function<double(St, int, size_t)> walk = [&](St s, int k, size_t i) -> double {
        const bool more = i < L;
        switch (s) {
            case N: return (more ? o.n_loop * walk(N, 0, i + 1) : 0.0) + o.n_move * walk(B, 0, i);
            case J: return (more ? o.j_loop * walk(J, 0, i + 1) : 0.0) + o.j_move * walk(B, 0, i);
            case C: return (more ? o.c_loop * walk(C, 0, i + 1) : 0.0) + (more ? 0.0 : o.c_move);
            case E: return o.e_move * walk(C, 0, i) + o.e_loop * walk(J, 0, i);
            case B: {
                double sum = 0;
                for (int m = 1; more && m <= M; ++m) sum += std::exp(static_cast<double>(p.tbm[static_cast<size_t>(m)])) * e(m, i) * walk(Mt, m, i + 1);
                return sum;
            }
            case Mt:
                return walk(E, 0, i) + (k < M && more ? t(k, kTMM) * e(k + 1, i) * walk(Mt, k + 1, i + 1) + t(k, kTMI) * walk(It, k, i + 1) : 0.0) +
                       (k < M ? t(k, kTMD) * walk(Dt, k + 1, i) : 0.0);
            case It:
                return more ? t(k, kTIM) * e(k + 1, i) * walk(Mt, k + 1, i + 1) + t(k, kTII) * walk(It, k, i + 1) : 0.0;
            case Dt:
                return walk(E, 0, i) + (k < M && more ? t(k, kTDM) * e(k + 1, i) * walk(Mt, k + 1, i + 1) : 0.0) +
                       (k < M ? t(k, kTDD) * walk(Dt, k + 1, i) : 0.0);
        }
        return 0.0;
    };
    return walk(N, 0, 0);
}

bool close_score(double got, double want, double rel = 1e-4) { return std::fabs(got - want) <= rel * (1.0 + std::fabs(want)); }

}  // namespace

TEST_CASE("the parser Forward of a whole target in multihit mode is the Forward filter's score, bit for bit") {
    seed();
    long compared = 0;
    for (int M : {1, 2, 4, 5, 8, 9, 17, 60, 99, 100, 101, 203}) {
        for (int rep = 0; rep < 2; ++rep) {
            CAPTURE(M);
            const Hmm h = random_vit_hmm(M, rep ? frand(5.0f, 40.0f) : 1.0f);
            const FwdProfile fp = build_fwd_profile(build_profile(h));
            for (const auto& dsq : fwd_targets_for(h, 6, M > 150 ? 600 : 1500)) {
                CAPTURE(dsq.size());
                const DomSpecialOdds odds = dom_special_odds(dsq.size(), true);
                DomMatrix parser, full;
                const float want = fwd_reference(fp, dsq);
                CHECK(same_score(dom_forward(fp, odds, dsq, parser, false), want));
                CHECK(same_score(dom_forward(fp, odds, dsq, full, true), want));
                ++compared;
            }
        }
    }
    MESSAGE(compared << " targets compared");
}

TEST_CASE("on tiny models Forward and Backward are the sum over every path, enumerated one by one") {
    seed();
    int compared = 0;
    for (int M : {1, 2, 3}) {
        for (size_t L : {1u, 2u, 3u, 4u}) {
            for (bool multihit : {true, false}) {
                CAPTURE(M);
                CAPTURE(L);
                CAPTURE(multihit);
                const Profile prof = build_profile(random_vit_hmm(M, frand(1.0f, 10.0f)));
                const FwdProfile fp = build_fwd_profile(prof);
                const auto dsq = random_vit_codes(L, 0);
                const DomSpecialOdds odds = dom_special_odds(L + static_cast<size_t>(uniform(0, 300)), multihit);
                const double want = std::log(all_paths(prof, odds, dsq));
                DomMatrix fwd, bck;
                const float f = dom_forward(fp, odds, dsq, fwd, true);
                const float b = dom_backward(fp, odds, dsq, fwd, bck, true);
                CHECK(close_score(f, want, 1e-5));
                CHECK(close_score(b, want, 1e-5));
                ++compared;
            }
        }
    }
    MESSAGE(compared << " (model, target, mode) triples enumerated");
}

TEST_CASE("Forward and Backward equal a textbook log-space Forward/Backward, multihit and unihit, whole targets and pieces") {
    seed();
    double worst = 0;
    long compared = 0;
    for (int M : {1, 3, 4, 7, 8, 12, 33, 99, 100, 140}) {
        CAPTURE(M);
        const Hmm h = random_vit_hmm(M, frand(1.0f, 30.0f));
        const Profile prof = build_profile(h);
        const FwdProfile fp = build_fwd_profile(prof);
        for (int rep = 0; rep < 4; ++rep) {
            std::vector<uint8_t> target = rep % 2 ? sample_homolog(h, 40) : random_vit_codes(static_cast<size_t>(uniform(1, 300)), 5);
            if (target.empty()) target.push_back(3);
            // a piece i..j of the target, scored with the whole target's L
            const size_t a = static_cast<size_t>(uniform(0, static_cast<int>(target.size()) - 1));
            const size_t b = static_cast<size_t>(uniform(static_cast<int>(a), static_cast<int>(target.size()) - 1));
            const std::vector<uint8_t> piece(target.begin() + static_cast<long>(a), target.begin() + static_cast<long>(b) + 1);
            for (const std::vector<uint8_t>* dsq : {static_cast<const std::vector<uint8_t>*>(&target), &piece}) {
                for (bool multihit : {true, false}) {
                    CAPTURE(dsq->size());
                    CAPTURE(multihit);
                    const DomSpecialOdds odds = dom_special_odds(target.size(), multihit);
                    const Textbook tb = textbook_fb(prof, odds, *dsq);
                    DomMatrix ff, bf, fp_, bp;
                    const float f_full = dom_forward(fp, odds, *dsq, ff, true);
                    const float b_full = dom_backward(fp, odds, *dsq, ff, bf, true);
                    const float f_par = dom_forward(fp, odds, *dsq, fp_, false);
                    const float b_par = dom_backward(fp, odds, *dsq, fp_, bp, false);
                    if (!std::isfinite(tb.fwd)) {  // no path: HMMER's range error
                        CHECK(std::isnan(f_full));
                        CHECK(std::isnan(b_full));
                        continue;
                    }
                    CHECK(close_score(tb.fwd, tb.bck, 1e-9));
                    CHECK(close_score(f_full, tb.fwd));
                    CHECK(close_score(b_full, tb.bck));
                    worst = std::max({worst, std::fabs(f_full - tb.fwd) / (1 + std::fabs(tb.fwd)), std::fabs(b_full - tb.bck) / (1 + std::fabs(tb.bck))});
                    // the parser computes the very same numbers with one row of cells
                    CHECK(same_score(f_par, f_full));
                    CHECK(same_score(b_par, b_full));
                    bool same_specials = true;
                    for (uint64_t i = 0; i <= dsq->size(); ++i)
                        for (DomSpecial s : {kDomXE, kDomXN, kDomXJ, kDomXB, kDomXC, kDomXScale})
                            same_specials = same_specials && same_score(fp_.x(i, s), ff.x(i, s)) && same_score(bp.x(i, s), bf.x(i, s));
                    CHECK(same_specials);
                    ++compared;
                }
            }
        }
    }
    MESSAGE(compared << " (target, mode) pairs compared; largest relative score difference " << worst);
}

TEST_CASE("a Backward whose values outgrow the Forward scale factors takes its own, and still sums every path") {
    for (uint64_t seed : {0u, 1u, 2u}) {
        CAPTURE(seed);
        const OwnScaleCase c = own_scale_case(seed);
        const FwdProfile fp = build_fwd_profile(c.prof);
        const DomSpecialOdds odds = dom_special_odds(c.dsq.size(), false);
        DomMatrix fwd, bck;
        const float f = dom_forward(fp, odds, c.dsq, fwd, true);
        const float b = dom_backward(fp, odds, c.dsq, fwd, bck, true);
        CHECK(bck.has_own_scales);
        const Textbook tb = textbook_fb(c.prof, odds, c.dsq);
        CHECK(close_score(f, tb.fwd));
        CHECK(close_score(b, tb.bck));
    }
}

TEST_CASE("targets without a path give NaN from both, as HMMER's range errors") {
    const Hmm h = random_vit_hmm(10, 1.0f);
    const FwdProfile fp = build_fwd_profile(build_profile(h));
    for (const std::vector<uint8_t>& dsq : {std::vector<uint8_t>{27}, std::vector<uint8_t>{27, 27, 28, 20}}) {
        const DomSpecialOdds odds = dom_special_odds(dsq.size(), true);
        DomMatrix fwd, bck;
        CHECK(std::isnan(dom_forward(fp, odds, dsq, fwd, true)));
        CHECK(std::isnan(dom_backward(fp, odds, dsq, fwd, bck, true)));
    }
    DomMatrix fwd, bck;
    const std::vector<uint8_t> none;
    CHECK(dom_forward(fp, dom_special_odds(0, true), none, fwd, false) == -INFINITY);
}
