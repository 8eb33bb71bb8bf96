// The float MSV (core/hmmer/msv/msv_float) against an exhaustive enumeration of every
// MSV path, on fresh random tiny models (M <= 3) and targets (L <= 4) every
// run. A path is N* (B M_k..M_{k+n-1} E (J* | C*))+ T: hits are runs of
// consecutive match states on consecutive residues, flanks are free, each
// hit costs tjb + tbm + tec. Summed in the same left-to-right order as the
// recurrence, so the two must agree bit for bit.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/hmmer/msv/msv_float.hpp"
#include "core/hmmer/profile.hpp"
#include "random_hmm.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

const float kNinf = -std::numeric_limits<float>::infinity();

float frand(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng()); }

void enumerate(const MsvFloatModel& m, const std::vector<uint8_t>& x, float tjb, size_t pos, float acc, int hits, float& best) {
    const size_t L = x.size();
    if (pos == L) {
        if (hits > 0 && acc > best) best = acc;
        return;
    }
    enumerate(m, x, tjb, pos + 1, acc, hits, best);  // x[pos] emitted by N, J or C
    // A hit may only start where the previous path score is the best way to
    // reach B: from N (0) or from J (acc); the recurrence keeps max(0, J).
    for (int from_j = 0; from_j <= (hits > 0 ? 1 : 0); ++from_j) {
        const float start = from_j ? acc : 0.0f;
        for (int k = 1; k <= m.M; ++k) {
            float sc = (start + tjb) + m.tbm;
            for (size_t n = 1; pos + n <= L && k + static_cast<int>(n) - 1 <= m.M; ++n) {
                sc = sc + m.score(k + static_cast<int>(n) - 1, x[pos + n - 1]);
                enumerate(m, x, tjb, pos + n, sc + m.tec, hits + 1, best);
            }
        }
    }
}

float brute_force(const MsvFloatModel& m, const std::vector<uint8_t>& x, float tjb) {
    float best = kNinf;
    enumerate(m, x, tjb, 0, 0.0f, 0, best);
    return best;
}

// Random emission scores; some -inf, as for the gap, '*' and '~' codes.
MsvFloatModel random_scores(int M) {
    MsvFloatModel m;
    m.M = M;
    m.Kp = 29;
    m.tbm = frand(-6, 0);
    m.tec = frand(-2, 0);
    m.s.assign(static_cast<size_t>(M + 1) * 29, kNinf);
    for (int k = 1; k <= M; ++k)
        for (int x = 0; x < 29; ++x)
            m.s[static_cast<size_t>(k) * 29 + static_cast<size_t>(x)] = uniform(0, 9) == 0 ? kNinf : frand(-5, 3);
    return m;
}

std::vector<uint8_t> random_codes(int L) {
    std::vector<uint8_t> x(static_cast<size_t>(L));
    for (auto& c : x) c = static_cast<uint8_t>(uniform(0, 3) == 0 ? uniform(20, 28) : uniform(0, 19));
    return x;
}

bool same(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("float MSV equals the best of all MSV paths (M <= 3, L <= 4)") {
    seed();
    int compared = 0;
    for (int trial = 0; trial < 400; ++trial) {
        const int M = trial < 8 ? 1 : uniform(1, 3);  // M = 1 always covered
        const MsvFloatModel m = trial % 2 ? random_scores(M) : msv_float_model(build_profile(random_hmm(M, rng())));
        for (int rep = 0; rep < 5; ++rep) {
            const int L = rep == 0 ? 1 : uniform(1, 4);  // L = 1 always covered
            const auto x = random_codes(L);
            const float tjb = std::log(3.0f / static_cast<float>(L + 3));
            const float want = brute_force(m, x, tjb);
            const float got = msv_float(m, x, tjb).xc;
            CAPTURE(trial);
            CAPTURE(M);
            CAPTURE(L);
            CAPTURE(got);
            CAPTURE(want);
            CHECK(same(got, want));
            ++compared;
        }
    }
    MESSAGE(compared << " model/target pairs compared");
}

TEST_CASE("float MSV: hand-computed one-node, one-residue case") {
    MsvFloatModel m;
    m.M = 1;
    m.Kp = 29;
    m.tbm = -1.0f;
    m.tec = -0.5f;
    m.s.assign(2 * 29, kNinf);
    m.s[29 + 3] = 2.0f;
    const std::vector<uint8_t> hit{3}, miss{27};
    CHECK(msv_float(m, hit, -0.25f).xc == (-0.25f - 1.0f + 2.0f - 0.5f));
    CHECK(msv_float(m, hit, -0.25f).xe == (-0.25f - 1.0f + 2.0f));
    CHECK(msv_float(m, miss, -0.25f).xc == kNinf);
}
