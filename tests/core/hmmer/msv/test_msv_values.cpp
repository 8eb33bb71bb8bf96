// The MSV byte profile and byte filter against the float model they quantise:
// the typical tbm/tjb/bias values of docs/hmmer-filters.md §5.1, exact
// agreement of the byte recurrence with the float MSV run on the byte profile's
// own scores, the SSV fast path's documented relation to the full MSV, and the
// nat score within the rounding bound of the unquantised float MSV.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/background.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/hmmer_units.hpp"
#include "core/hmmer/msv/msv_float.hpp"
#include "core/hmmer/msv/msv_profile.hpp"
#include "core/hmmer/msv/msv_reference.hpp"
#include "core/hmmer/msv/msv_score.hpp"
#include "core/hmmer/profile.hpp"
#include "core/hmmer/pvalue.hpp"
#include "hmmer_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

Profile flat_profile(int M) {
    Profile p;
    p.M = M;
    p.msc.assign(static_cast<size_t>(M + 1) * 29, 0.0f);
    return p;
}

std::vector<std::vector<uint8_t>> test_targets(const std::string& hmm_path) {
    std::vector<std::vector<uint8_t>> t;
    const auto emitted = parse_fasta(run_command("hmmemit -N 20 --seed " + std::to_string(uniform(1, 1000000)) + " " + hmm_path));
    for (const auto& e : emitted) t.push_back(digitize_amino(e.seq));
    for (const auto& e : emitted) {  // partial homologs, in random flanks
        if (e.seq.empty()) continue;     // hmmemit can emit nothing from a 1-node model
        std::string s = random_text("ACDEFGHIKLMNPQRSTVWY", static_cast<size_t>(uniform(0, 400)));
        const size_t a = static_cast<size_t>(uniform(0, static_cast<int>(e.seq.size()) - 1));
        s += e.seq.substr(a, static_cast<size_t>(uniform(1, 60)));
        s += random_text("ACDEFGHIKLMNPQRSTVWYBJZOUX*", static_cast<size_t>(uniform(0, 400)));
        t.push_back(digitize_amino(s));
    }
    for (int L : {1, 2, 3, 10, 100, 1000, 3000}) t.push_back(digitize_amino(random_text("ACDEFGHIKLMNPQRSTVWY", static_cast<size_t>(L))));
    for (int i = 0; i < 40; ++i) t.push_back(digitize_amino(random_text("ACDEFGHIKLMNPQRSTVWYX", static_cast<size_t>(uniform(1, 2000)))));
    t.push_back(digitize_amino("*"));
    t.push_back(digitize_amino("*****"));
    return t;
}

}  // namespace

TEST_CASE("byte profile constants: the typical values of docs/hmmer-filters.md §5.1") {
    const std::vector<std::pair<int, int>> tbm = {{10, 17}, {50, 31}, {86, 36}, {100, 37}, {149, 40},
                                                  {260, 45}, {500, 51}, {1000, 57}, {2000, 63}, {2405, 64}};
    for (auto [M, want] : tbm) {
        CAPTURE(M);
        const MsvByteProfile b = build_msv_profile(flat_profile(M));
        CHECK(int{b.tbm} == want);
        CHECK(int{b.tec} == 3);
        CHECK(int{b.bias} == 0);  // all scores 0: the 0 floor of the max
    }
    const std::vector<std::pair<uint64_t, int>> tjb = {{1, 1}, {10, 6}, {100, 15}, {350, 21}, {1000, 25}, {10000, 35}, {100000, 45}};
    for (auto [L, want] : tjb) {
        CAPTURE(L);
        CHECK(int{msv_tjb(L)} == want);
    }
    for (const std::string f : {"fn3.hmm", "globins4.hmm", "Pkinase.hmm"}) {
        CAPTURE(f);
        const MsvByteProfile b = build_msv_profile(build_profile(read_all_hmms(kHmmerTutorial + f).at(0)));
        CHECK(int{b.bias} >= 16);
        CHECK(int{b.bias} <= 18);
        CHECK(b.cost_at(27, 1) == 255);  // '*'
        CHECK(b.cost_at(20, 1) == 255);  // gap
    }
    CHECK(hmmer::kScaleB == 0x1.14ff58p+2f);
}

TEST_CASE("the null score is finite up to the longest target, and refused past it (docs/hmmer-filters.md §3.1)") {
    // Both L and L + 1 are floats up to 2^24 - 1; at 2^24 p1 would round to 1 and log(1 - p1) to -inf.
    CHECK(kHmmerMaxTargetLength == 16777215);
    CHECK(std::isfinite(null_score(kHmmerMaxTargetLength)));
    CHECK(null_score(kHmmerMaxTargetLength) < null_score(kHmmerMaxTargetLength / 2));
    CHECK(static_cast<float>(kHmmerMaxTargetLength + 1) == static_cast<float>(kHmmerMaxTargetLength + 2));
    CHECK_THROWS_AS((void)null_score(kHmmerMaxTargetLength + 1), InternalError);
}

TEST_CASE("null score and P-value tails") {
    CHECK(null_score(1) == static_cast<float>(std::log(0.5) + std::log(1.0 - 0.5)));
    CHECK(null_score(100) < null_score(10));
    CHECK(gumbel_surv(INFINITY, -9.0, 0.7) == 0.0);
    CHECK(gumbel_surv(-INFINITY, -9.0, 0.7) == 1.0);
    CHECK(exp_surv(INFINITY, -4.0, 0.7) == 0.0);
    CHECK(exp_surv(-INFINITY, -4.0, 0.7) == 1.0);
    CHECK(exp_surv(-5.0, -4.0, 0.7) == 1.0);
    CHECK(gumbel_surv(-9.0, -9.0, 0.7) == doctest::Approx(1.0 - std::exp(-1.0)));
    CHECK(msv_nats(kMsvOverflow, 100) == INFINITY);
    // No STATS (evparam -99999): every P-value is 1, nothing passes.
    CHECK(gumbel_surv(30.0, kEvParamUnset, kEvParamUnset) == 1.0);
    CHECK(gumbel_surv(INFINITY, kEvParamUnset, kEvParamUnset) == 1.0);
}

TEST_CASE("P-values in the subnormal range are 0, as under hmmsearch's flush-to-zero") {
    const double tiny = std::numeric_limits<double>::min();  // the smallest normal double
    // exp(-lambda (x - tau)) just above, at and below the smallest normal.
    const double lambda = 0.7, tau = -4.0;
    const double at_min = tau - std::log(tiny) / lambda;
    CHECK(exp_surv(at_min - 1.0, tau, lambda) >= tiny);
    for (double over : {0.01, 1.0, 10.0, 40.0}) {  // (the subnormals span 52 binades, ~51 units of x here)
        CAPTURE(over);
        CHECK(std::exp(-lambda * (at_min + over - tau)) > 0.0);  // subnormal in default mode
        CHECK(exp_surv(at_min + over, tau, lambda) == 0.0);
    }
    CHECK(exp_surv(at_min + 300.0, tau, lambda) == 0.0);
    // Gumbel: exp(-y) subnormal once y exceeds -log(DBL_MIN) ~ 708.4.
    CHECK(gumbel_surv(-9.0 + 700.0 / lambda, -9.0, lambda) >= tiny);
    CHECK(gumbel_surv(-9.0 + 720.0 / lambda, -9.0, lambda) == 0.0);
    CHECK(gumbel_surv(-9.0 + 740.0 / lambda, -9.0, lambda) == 0.0);
}

TEST_CASE("byte MSV on real models: exact vs the float MSV of its own scores, bounded vs unquantised") {
    seed();
    // Rounding bound: every byte term (emission, tbm, tec, tjb) is roundf of
    // scale_b times the float term, so it is off by <= 0.5 third-bits; a
    // path has at most L emissions, <= L hits (3 move terms each) and one
    // final tjb, so |byte - float| <= 0.5 * (4L + 1) / scale_b nats.
    double worst = 0;
    int overflows = 0, ssv_floor = 0, compared = 0;
    for (const std::string& f : std::vector<std::string> {kHmmerTutorial + "fn3.hmm", kHmmerTutorial + "globins4.hmm", kHmmerTutorial + "Pkinase.hmm",
                                kHmmerSuite + "RRM_1.hmm.gz", kHmmerSuite + "M1.hmm"}) {
        CAPTURE(f);
        TempDir dir;
        const auto plain = dir.path() / "m.hmm";
        run_command("gzip -dcf " + f + " > " + plain.string());
        const Hmm h = read_all_hmms(f).at(0);
        const Profile prof = build_profile(h);
        const MsvByteProfile bp = build_msv_profile(prof);
        const MsvFloatModel rounded = msv_float_model(bp);
        const MsvFloatModel exact = msv_float_model(prof);
        for (const auto& dsq : test_targets(plain.string())) {
            const uint64_t L = dsq.size();
            CAPTURE(L);
            const float tjb_b = static_cast<float>(msv_tjb(L));
            const MsvFloatResult r = msv_float(rounded, dsq, -tjb_b);
            const uint16_t full = msv_full_reference(bp, dsq);
            const bool overflow = kMsvBase + r.xe >= 255.0f - static_cast<float>(bp.bias);
            CHECK((full == kMsvOverflow) == overflow);
            if (full != kMsvOverflow) CHECK(int{full} == static_cast<int>(std::max(0.0f, kMsvBase + r.xc)));

            // SSV: either defers, or equals the full MSV, or reports its floor.
            const uint16_t ssv = ssv_reference(bp, dsq);
            if (ssv != kSsvNoResult && ssv != full) {
                const int xB0 = kMsvBase - static_cast<int>(tjb_b) - bp.tbm;
                CHECK(int{ssv} == xB0 - bp.tec);
                CHECK(ssv > full);
                ++ssv_floor;
            }
            CHECK(msv_reference(bp, dsq) == (ssv != kSsvNoResult ? ssv : full));

            const float fnats = msv_float_nats(exact, dsq);
            if (full == kMsvOverflow) {
                ++overflows;
                const float bits = score_bits(fnats, null_score(L));
                CHECK(gumbel_surv(bits, h.evparam[kMsvMu], h.evparam[kMsvLambda]) < 1e-3);
            } else if (full > 0) {
                const double diff = std::fabs(static_cast<double>(msv_nats(full, L)) - static_cast<double>(fnats));
                const double bound = 0.5 * (4.0 * static_cast<double>(L) + 1.0) / static_cast<double>(hmmer::kScaleB) + 1e-3;
                CHECK(diff <= bound);
                worst = std::max(worst, diff);
                ++compared;
            }
        }
    }
    MESSAGE(compared << " scores compared, largest |byte - float| = " << worst << " nats; "
            << overflows << " overflows; " << ssv_floor << " SSV floor results");
    CHECK(overflows > 0);
}

TEST_CASE("profile: degenerate scores, non-residues, entry scores at full occupancy") {
    const Hmm h = read_all_hmms(kHmmerTutorial + "globins4.hmm").at(0);
    const Profile p = build_profile(h);
    const auto& f = background_frequencies(AlphabetKind::amino);
    const auto& abc = Alphabet::amino();
    auto code = [&](char c) { return static_cast<int>(abc.digitize(static_cast<unsigned char>(c))); };
    for (int k = 1; k <= p.M; ++k) {
        CAPTURE(k);
        // O and U are K and C up to the float rounding of (s*f)/f: the
        // expected-score formula of docs/hmmer-filters.md §2.3, not a copy, is
        // what HMMER computes.
        CHECK(p.match_score(k, code('O')) == (0.0f + p.match_score(k, code('K')) * f[8]) / (0.0f + f[8]));
        CHECK(p.match_score(k, code('U')) == (0.0f + p.match_score(k, code('C')) * f[1]) / (0.0f + f[1]));
        CHECK(p.match_score(k, code('O')) == doctest::Approx(p.match_score(k, code('K'))).epsilon(1e-6));
        const float num = 0.0f + p.match_score(k, code('D')) * f[2] + p.match_score(k, code('N')) * f[11];
        CHECK(p.match_score(k, code('B')) == num / (0.0f + f[2] + f[11]));
        CHECK(p.match_score(k, 20) == -INFINITY);
        CHECK(p.match_score(k, 27) == -INFINITY);
        CHECK(p.match_score(k, 28) == -INFINITY);
        CHECK(p.match_score(k, 0) == static_cast<float>(std::log(static_cast<double>(h.match(k, 0)) / static_cast<double>(f[0]))));
    }
    // With no deletions every node is occupied, and the local entry becomes
    // uniform over the M(M+1)/2 (start, end) pairs: tBM = log 2/(M(M+1)).
    Hmm flat = h;
    for (auto& t : flat.t) {
        t[kTMM] = 0.75f; t[kTMI] = 0.25f; t[kTMD] = 0.0f; t[kTDM] = 1.0f; t[kTDD] = 0.0f;
    }
    const Profile q = build_profile(flat);
    const double want = std::log(2.0 / (static_cast<double>(q.M) * (q.M + 1)));
    for (int k = 1; k <= q.M; ++k) CHECK(q.tbm[static_cast<size_t>(k)] == doctest::Approx(want).epsilon(1e-5));
}
