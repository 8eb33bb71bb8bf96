// The Forward-parser reference: Easel's expf emulation against libm and at
// its edges, and the striped single-precision reference against an
// independent textbook Forward in double precision over the same profile
// (HMMER's generic recurrences, no striping, no rescaling tricks): the two
// agree to float rounding on random models of every stripe shape and on
// both sides of the M = 100 switch of the D->D passes, so the reference
// computes the right quantity; the hmmsearch oracle test pins its last bits.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/hmmer/fwd/fwd_profile.hpp"
#include "core/hmmer/fwd/fwd_reference.hpp"
#include "core/hmmer/profile.hpp"
#include "fwd_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

// Forward in double over the generic profile: local multihit, D->E allowed,
// insert odds 1, N/C/J loops and moves for length L.
double textbook_forward(const Profile& p, const std::vector<uint8_t>& dsq) {
    const int M = p.M;
    const auto n = static_cast<size_t>(M) + 2;
    auto ex = [](float s) { return std::exp(static_cast<double>(s)); };
    auto tsc = [&](int k, int t) { return k >= 1 && k < M ? ex(p.tsc[static_cast<size_t>(k)][static_cast<size_t>(t)]) : 0.0; };
    const double pmove = profile_pmove(dsq.size());
    const double ploop = 1.0 - pmove;
    std::vector<double> Mp(n, 0), Ip(n, 0), Dp(n, 0), Mc(n, 0), Ic(n, 0), Dc(n, 0);
    double N = 1, B = pmove, J = 0, C = 0, logscale = 0;
    for (uint8_t x : dsq) {
        double E = 0;
        for (int k = 1; k <= M; ++k) {
            const auto ks = static_cast<size_t>(k);
            Mc[ks] = ex(p.match_score(k, x)) * (B * ex(p.tbm[ks]) + Mp[ks - 1] * tsc(k - 1, kTMM) +
                                                Ip[ks - 1] * tsc(k - 1, kTIM) + Dp[ks - 1] * tsc(k - 1, kTDM));
            Ic[ks] = Mp[ks] * tsc(k, kTMI) + Ip[ks] * tsc(k, kTII);
            Dc[ks] = k == 1 ? 0.0 : Mc[ks - 1] * tsc(k - 1, kTMD) + Dc[ks - 1] * tsc(k - 1, kTDD);
            E += Mc[ks] + Dc[ks];
        }
        N *= ploop;
        C = C * ploop + E * 0.5;
        J = J * ploop + E * 0.5;
        B = (J + N) * pmove;
        // rescale every row by the row's largest value (exact in any base)
        const double s = std::max({N, B, J, C, 1e-300});
        for (int k = 1; k <= M; ++k) {
            const auto ks = static_cast<size_t>(k);
            Mp[ks] = Mc[ks] / s;
            Ip[ks] = Ic[ks] / s;
            Dp[ks] = Dc[ks] / s;
        }
        N /= s, B /= s, J /= s, C /= s;
        logscale += std::log(s);
    }
    return logscale + std::log(C * pmove);
}

}  // namespace

TEST_CASE("easel_expf is libm's exp to a few ulps, 0 below -88.376 and in the denormal range, inf above 88.376") {
    CHECK(easel_expf(0.0f) == 1.0f);
    CHECK(easel_expf(-std::numeric_limits<float>::infinity()) == 0.0f);
    CHECK(easel_expf(-88.3762626647949f) == 0.0f);
    CHECK(easel_expf(-87.6f) == 0.0f);  // e^-87.6 ~ 9.5e-39 is denormal: flushed
    CHECK(easel_expf(-87.0f) > 0.0f);
    CHECK(std::isinf(easel_expf(88.4f)));
    int worst_ulps = 0;
    for (int i = 0; i < 200000; ++i) {
        const float x = frand(-87.0f, 88.0f);
        const float want = std::exp(x);
        const float got = easel_expf(x);
        const int ulps = std::abs(std::bit_cast<int32_t>(want) - std::bit_cast<int32_t>(got));
        worst_ulps = std::max(worst_ulps, ulps);
    }
    MESSAGE("largest difference from libm expf: " << worst_ulps << " ulps");
    CHECK(worst_ulps <= 4);
}

TEST_CASE("the striped float Forward equals a textbook double Forward to float rounding") {
    seed();
    double worst = 0;
    long compared = 0, failing = 0;
    for (int M : {1, 2, 3, 5, 8, 9, 13, 40, 99, 100, 101, 257, 600}) {
        for (int rep = 0; rep < (M < 100 ? 3 : 1); ++rep) {
            CAPTURE(M);
            CAPTURE(rep);
            const Hmm h = random_vit_hmm(M, rep % 2 ? 1.0f : frand(5.0f, 40.0f));
            const Profile prof = build_profile(h);
            const FwdProfile fp = build_fwd_profile(prof);
            CHECK(fp.Q == std::max(2, (M + 3) / 4));
            for (const auto& dsq : fwd_targets_for(h, 8, M > 200 ? 800 : 2000)) {
                CAPTURE(dsq.size());
                const float got = fwd_reference(fp, dsq);
                const double want = textbook_forward(prof, dsq);
                if (!std::isfinite(want)) {  // no path at all: HMMER's "underflow" error
                    CHECK(std::isnan(got));
                    ++failing;
                    continue;
                }
                REQUIRE(std::isfinite(got));
                // float rounding over L x M cells: relative error ~ sqrt(cells) x 2^-24 in the sums
                const double err = std::fabs(got - want);
                worst = std::max(worst, err / (1.0 + std::fabs(want)));
                CHECK(err <= 1e-4 * (1.0 + std::fabs(want)));
                ++compared;
            }
        }
    }
    MESSAGE(compared << " scores compared, largest relative difference " << worst << "; " << failing
                     << " targets without a path");
    CHECK(failing > 0);
}
