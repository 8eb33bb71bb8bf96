// Verifies the scalar Viterbi-filter reference (core/hmmer/vit/vit_reference) from the
// ground up. (1) An unquantised float Viterbi with the filter's state
// structure (local multihit; M, I, D; E only from M; N/C/J loops free and
// -3 nats at the end; float scores of the Profile) equals the best of all
// paths, enumerated exhaustively, bit for bit, for M <= 3, L <= 4 on fresh
// random models. (2) The int16 reference tracks that float score within
// the rounding bound of the word profile. (3) Hand-computed fixtures for the
// saturation behaviour, and a forced overflow.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/hmmer/hmmer_units.hpp"
#include "core/hmmer/profile.hpp"
#include "core/hmmer/vit/vit_model.hpp"
#include "core/hmmer/vit/vit_profile.hpp"
#include "core/hmmer/vit/vit_reference.hpp"
#include "test_support.hpp"
#include "vit_random.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

const float kNinf = -std::numeric_limits<float>::infinity();

float tsc(const Profile& p, int k, int t) { return p.tsc[static_cast<size_t>(k)][static_cast<size_t>(t)]; }

// The float Viterbi: same recurrence as docs/hmmer-filters.md §6.2 with float
// scores.
float float_viterbi(const Profile& p, const std::vector<uint8_t>& x) {
    const int M = p.M;
    const float move = std::log(profile_pmove(x.size()));
    std::vector<float> Mp(static_cast<size_t>(M) + 1, kNinf), Ip = Mp, Dp = Mp, Mc = Mp, Ic = Mp, Dc = Mp;
    const float xN = 0.0f;
    float xB = xN + move, xJ = kNinf, xC = kNinf;
    for (uint8_t c : x) {
        for (int k = 1; k <= M; ++k) {
            const auto ks = static_cast<size_t>(k);
            float v = xB + p.tbm[ks];
            if (k > 1) {
                v = std::max(v, Mp[ks - 1] + tsc(p, k - 1, kTMM));
                v = std::max(v, Ip[ks - 1] + tsc(p, k - 1, kTIM));
                v = std::max(v, Dp[ks - 1] + tsc(p, k - 1, kTDM));
            }
            Mc[ks] = v + p.match_score(k, c);
            Ic[ks] = k < M ? std::max(Mp[ks] + tsc(p, k, kTMI), Ip[ks] + tsc(p, k, kTII)) : kNinf;
        }
        Dc[1] = kNinf;
        for (int k = 2; k <= M; ++k) {
            const auto ks = static_cast<size_t>(k);
            Dc[ks] = std::max(Mc[ks - 1] + tsc(p, k - 1, kTMD), Dc[ks - 1] + tsc(p, k - 1, kTDD));
        }
        float xE = kNinf;
        for (int k = 1; k <= M; ++k) xE = std::max(xE, Mc[static_cast<size_t>(k)]);
        xC = std::max(xC, xE + kProfileTec);
        xJ = std::max(xJ, xE + kProfileTec);
        xB = std::max(xN + move, xJ + move);
        std::swap(Mp, Mc);
        std::swap(Ip, Ic);
        std::swap(Dp, Dc);
    }
    return (xC + move) - 3.0f;
}

// Every path N* B (core) E (J* B (core) E)* C* T, summed left to right.
struct Enumerator {
    const Profile& p;
    const std::vector<uint8_t>& x;
    float move;
    float best = kNinf;
    size_t L() const { return x.size(); }

    void N(size_t i, float acc) {
        if (i < L()) N(i + 1, acc);  // N->N is free
        B(i, acc + move);
    }
    void B(size_t i, float acc) {
        if (i >= L()) return;
        for (int k = 1; k <= p.M; ++k) Mst(k, i + 1, (acc + p.tbm[static_cast<size_t>(k)]) + p.match_score(k, x[i]));
    }
    void Mst(int k, size_t i, float acc) {  // M_k has emitted x[i-1]
        E(i, acc);
        if (k >= p.M) return;
        if (i < L()) {
            Mst(k + 1, i + 1, (acc + tsc(p, k, kTMM)) + p.match_score(k + 1, x[i]));
            Ist(k, i + 1, acc + tsc(p, k, kTMI));
        }
        Dst(k + 1, i, acc + tsc(p, k, kTMD));
    }
    void Ist(int k, size_t i, float acc) {  // insert emission score 0
        if (i >= L()) return;
        Ist(k, i + 1, acc + tsc(p, k, kTII));
        Mst(k + 1, i + 1, (acc + tsc(p, k, kTIM)) + p.match_score(k + 1, x[i]));
    }
    void Dst(int k, size_t i, float acc) {  // D->E does not exist in the filter
        if (k >= p.M) return;
        Dst(k + 1, i, acc + tsc(p, k, kTDD));
        if (i < L()) Mst(k + 1, i + 1, (acc + tsc(p, k, kTDM)) + p.match_score(k + 1, x[i]));
    }
    void E(size_t i, float acc) {
        C(i, acc + kProfileTec);
        J(i, acc + kProfileTec);
    }
    void J(size_t i, float acc) {
        if (i < L()) J(i + 1, acc);
        B(i, acc + move);
    }
    void C(size_t i, float acc) {
        if (i < L()) C(i + 1, acc);
        else best = std::max(best, (acc + move) - 3.0f);
    }
};

float brute_force(const Profile& p, const std::vector<uint8_t>& x) {
    Enumerator e{p, x, std::log(profile_pmove(x.size()))};
    e.N(0, 0.0f);
    return e.best;
}

bool same(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Word-profile rounding bound (nats) for a target of length L: every score
// on a path is rounded by <= 0.5 word units, II may be forced from 0 to -1
// (<= 1 unit); a path of L residues has at most 2L emission/transition
// terms, at most L hits each with <= M+2 further terms (entry move, D
// steps, E), and one final move. 1e-4 nats covers float summation.
double word_bound(int M, size_t L) {
    const double terms = 2.0 * static_cast<double>(L) + static_cast<double>(L) * (M + 2) + 1.0;
    return terms / static_cast<double>(hmmer::kScaleW) + 1e-4;
}

}  // namespace

TEST_CASE("float Viterbi equals the best of all paths (M <= 3, L <= 4), and the word reference tracks it") {
    seed();
    int compared = 0, finite = 0, noninf = 0;
    double worst = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const int M = trial < 10 ? 1 : uniform(1, 3);  // M = 1 always covered
        const Profile prof = build_profile(random_vit_hmm(M, trial % 3 == 0 ? 5.0f : 1.0f));
        const VitWordProfile wp = build_vit_profile(prof);
        for (int rep = 0; rep < 6; ++rep) {
            const size_t L = rep == 0 ? 1 : static_cast<size_t>(uniform(1, 4));  // L = 1 always covered
            const auto x = random_vit_codes(L, 15);
            const float want = brute_force(prof, x);
            const float got = float_viterbi(prof, x);
            CAPTURE(trial);
            CAPTURE(M);
            CAPTURE(L);
            CAPTURE(got);
            CAPTURE(want);
            REQUIRE(same(got, want));
            ++compared;
            const uint32_t raw = vit_reference(wp, x);
            REQUIRE(raw != kVitOverflow);  // too short to reach the ceiling
            const float w = vit_nats(raw, L);
            CAPTURE(w);
            if (std::isinf(want)) {
                // No real path: HMMER's int16 arithmetic turns "x + (-32768)"
                // into finite junk far below any real score, or gives -inf.
                CHECK(w < -17.0f);
                ++noninf;
            } else {
                ++finite;
                const double err = std::fabs(static_cast<double>(w) - static_cast<double>(want));
                worst = std::max(worst, err / word_bound(M, L));
                CHECK(err <= word_bound(M, L));
            }
        }
    }
    MESSAGE(compared << " float/brute-force comparisons, " << finite << " finite word scores within bound (worst "
                     << worst << " of the bound), " << noninf << " without a real path");
    CHECK(finite > 0);
    CHECK(noninf > 0);
}

TEST_CASE("word reference on longer targets stays within the rounding bound of the float Viterbi") {
    double worst = 0;
    for (int trial = 0; trial < 60; ++trial) {
        const int M = uniform(1, 40);
        const Profile prof = build_profile(random_vit_hmm(M, 1.0f));
        const VitWordProfile wp = build_vit_profile(prof);
        const size_t L = static_cast<size_t>(uniform(1, 40));
        const auto x = random_vit_codes(L, 0);
        const uint32_t raw = vit_reference(wp, x);
        if (raw == kVitOverflow) continue;
        const double err = std::fabs(static_cast<double>(vit_nats(raw, L)) - static_cast<double>(float_viterbi(prof, x)));
        worst = std::max(worst, err / word_bound(M, L));
        CAPTURE(M);
        CAPTURE(L);
        CHECK(err <= word_bound(M, L));
    }
    MESSAGE("worst error " << worst << " of the bound");
}

TEST_CASE("hand-computed fixtures: M = 1, L = 1, and HMMER's saturation junk") {
    const Profile prof = build_profile(random_vit_hmm(1));
    const VitWordProfile wp = build_vit_profile(prof);
    const int ncj = vit_ncj_move(1);
    CHECK(ncj == -208);  // docs/hmmer-filters.md §6.1
    const int bm = wp.t(1, kVBM);
    for (int x = 0; x < 29; ++x) {
        CAPTURE(x);
        const std::vector<uint8_t> s{static_cast<uint8_t>(x)};
        // Only path: N->B->M1->E->C->T; the C move is added in vit_nats.
        int m = std::clamp(kVitBase + ncj + bm, -32768, 32767);
        m = std::clamp(m + wp.e(x, 1), -32768, 32767);
        const int xc = m + kVitEMove;
        const uint32_t raw = vit_reference(wp, s);
        if (wp.e(x, 1) == kWordNegInf) {
            // -inf emission on a positive value: x - 32768, a finite junk score.
            REQUIRE(kVitBase + ncj + bm > 0);
            CHECK(raw == static_cast<uint32_t>(xc + 32768));
            CHECK(vit_nats(raw, 1) < -17.0f);
        } else {
            CHECK(raw == static_cast<uint32_t>(xc + 32768));
        }
    }
    // L = 0: no residue, no path.
    CHECK(vit_reference(wp, {}) == kVitNoPath);
    CHECK(std::isinf(vit_nats(kVitNoPath, 1)));
    CHECK(vit_nats(kVitNoPath, 1) < 0);
}

TEST_CASE("forced overflow: a conserved model and its consensus repeated") {
    const Hmm h = random_vit_hmm(60, 200.0f);
    const Profile prof = build_profile(h);
    const VitWordProfile wp = build_vit_profile(prof);
    std::vector<uint8_t> cons;
    for (int k = 1; k <= h.M; ++k) {
        int best = 0;
        for (int x = 1; x < 20; ++x) if (h.match(k, x) > h.match(k, best)) best = x;
        cons.push_back(static_cast<uint8_t>(best));
    }
    std::vector<uint8_t> twice = cons;
    twice.insert(twice.end(), cons.begin(), cons.end());
    // The float score says the int16 ceiling is exceeded, and the reference reports it.
    const float f = float_viterbi(prof, twice);
    CHECK(static_cast<double>(f) * static_cast<double>(hmmer::kScaleW) > 32767.0 - kVitBase + 3000.0);
    const uint32_t raw = vit_reference(wp, twice);
    REQUIRE(raw == kVitOverflow);
    CHECK(std::isinf(vit_nats(raw, twice.size())));
    CHECK(vit_nats(raw, twice.size()) > 0);
    Hmm hs = h;
    hs.evparam[kVitMu] = -10.0f;
    hs.evparam[kVitLambda] = 0.7f;
    const VitVerdict v = vit_verdict(hs, -1.0f, raw, twice.size(), 1e-3);
    CHECK(v.p == 0.0);
    CHECK(v.pass);
    // A short prefix stays below the ceiling.
    const std::vector<uint8_t> head(cons.begin(), cons.begin() + 3);
    CHECK(vit_reference(wp, head) < 65536u);
}
