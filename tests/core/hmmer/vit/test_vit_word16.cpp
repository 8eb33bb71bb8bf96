// The wrapping 16-bit Viterbi filter (core/hmmer/vit/vit_word16) against the saturating
// reference, on fresh random models and targets every run: whenever the plan
// says a (model, length) is safe, the emulation of the kernel's arithmetic
// must give the reference's result with not one wrapped sum, whatever the
// padding. Real Pfam models must be safe for every realistic target length,
// and an unsafe model must be refused (and really does go wrong).
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/profile.hpp"
#include "core/hmmer/vit/vit_profile.hpp"
#include "core/hmmer/vit/vit_reference.hpp"
#include "core/hmmer/vit/vit_word16.hpp"
#include "hmmer_test_support.hpp"
#include "test_support.hpp"
#include "vit_random.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

// Random codes of a Kp-code alphabet outside `bad`: mostly the first `canon`.
std::vector<uint8_t> safe_codes(size_t L, int Kp, int canon, uint32_t bad) {
    std::vector<uint8_t> x(L);
    for (auto& c : x) {
        do c = static_cast<uint8_t>(uniform(0, 9) ? uniform(0, canon - 1) : uniform(0, Kp - 1));
        while (bad >> c & 1u);
    }
    return x;
}

// A homolog with its codes outside the plan's bad set replaced.
std::vector<uint8_t> safe_homolog(const Hmm& h, uint32_t bad) {
    std::vector<uint8_t> x = sample_homolog(h, 60);
    for (auto& c : x)
        if (bad >> c & 1u) c = 0;
    return x;
}

struct Tally {
    long models = 0, safe_models = 0, compared = 0, overflow = 0, finite = 0, nopath = 0, bad = 0;
    uint64_t wraps = 0;
};

void check_model(const Hmm& h, int targets, Tally& t, bool amino = true) {
    const VitWordProfile wp = build_vit_profile(build_profile(h));
    const Vit16Plan plan = vit16_plan(wp);
    ++t.models;
    if (!plan.ok) return;
    ++t.safe_models;
    CHECK(plan.max_len >= 1);
    CHECK(plan.F <= 0);
    // Gap, '*' and '~' of the amino (20, 27, 28) or DNA (4, 16, 17) alphabet.
    CHECK(plan.bad_codes == (amino ? (1u << 20) | (1u << 27) | (1u << 28) : (1u << 4) | (1u << 16) | (1u << 17)));
    for (int i = 0; i < targets; ++i) {
        std::vector<uint8_t> x = !amino || uniform(0, 2) == 0
                                     ? safe_codes(static_cast<size_t>(uniform(1, 400)), wp.Kp, amino ? 20 : 4,
                                                  plan.bad_codes)
                                     : safe_homolog(h, plan.bad_codes);
        if (x.empty()) x.push_back(0);
        if (x.size() > plan.max_len) x.resize(plan.max_len);
        const uint32_t want = vit_reference(wp, x);
        uint64_t wraps = 0;
        const uint32_t got = vit16_emulate(wp, plan, x, uniform(0, 40), &wraps);
        ++t.compared;
        t.overflow += want == kVitOverflow;
        t.nopath += want == kVitNoPath;
        t.finite += want < 65536;
        t.wraps += wraps;
        if (got != want && ++t.bad <= 5)
            MESSAGE("MISMATCH M=" << wp.M << " L=" << x.size() << " got " << got << " want " << want << " (K="
                                  << plan.K << " F=" << plan.F << ")");
    }
}

}  // namespace

TEST_CASE("16-bit Viterbi emulation == reference wherever the plan allows it, with no wrapped sum") {
    Tally t;
    const int sizes[] = {1, 2, 3, 7, 16, 31, 64, 100, 191, 256, 400, 700};
    for (int M : sizes)
        for (float sharp : {1.0f, 3.0f, 8.0f, 20.0f, 40.0f}) check_model(random_vit_hmm(M, sharp), 25, t);
    MESSAGE("models " << t.models << " (" << t.safe_models << " safe), targets " << t.compared << ": " << t.finite
                      << " finite, " << t.overflow << " overflow, " << t.nopath << " no path, " << t.bad
                      << " mismatches, " << t.wraps << " wraps");
    CHECK(t.bad == 0);
    CHECK(t.wraps == 0);
    CHECK(t.safe_models * 2 > t.models);  // the fast path is the common one
    CHECK(t.finite > 0);
    CHECK(t.overflow > 0);
}

TEST_CASE("Pfam models are safe for targets far longer than any protein") {
    if (!std::filesystem::exists(kHmmerTutorial + "Pkinase.hmm")) {
        MESSAGE("HMMER's examples are not installed: skipped");
        return;
    }
    Tally t;
    for (const char* name : {"Pkinase.hmm", "fn3.hmm", "globins4.hmm"}) {
        for (const Hmm& h : read_all_hmms(kHmmerTutorial + name)) {
            const VitWordProfile wp = build_vit_profile(build_profile(h));
            const Vit16Plan plan = vit16_plan(wp);
            CAPTURE(name);
            CHECK(plan.ok);
            CHECK(plan.max_len >= 100000);
            check_model(h, 200, t);
        }
    }
    for (const Hmm& h : read_all_hmms(kHmmerTutorial + "MADE1.hmm")) {  // DNA
        CHECK(vit16_plan(build_vit_profile(build_profile(h))).max_len >= 100000);
        check_model(h, 200, t, false);
    }
    CHECK(t.bad == 0);
    CHECK(t.wraps == 0);
}

TEST_CASE("an unsafe model is refused, and the wrapping arithmetic really would fail on it") {
    const Hmm h = random_vit_hmm(60, 10.0f);
    VitWordProfile wp = build_vit_profile(build_profile(h));
    REQUIRE(vit16_plan(wp).ok);
    // A near -inf M->M word in the middle of the model: -inf + it must saturate.
    wp.trans[static_cast<size_t>(30) * kVitNumTrans + kVMM] = -32000;
    CHECK_FALSE(vit16_plan(wp).ok);
    // Force the plan the safe model had onto it: some sum wraps.
    VitWordProfile safe = build_vit_profile(build_profile(h));
    const Vit16Plan forced = vit16_plan(safe);
    uint64_t wraps = 0;
    for (int i = 0; i < 50; ++i) {
        const auto x = safe_codes(static_cast<size_t>(uniform(5, 300)), wp.Kp, 20, forced.bad_codes);
        (void)vit16_emulate(wp, forced, x, 0, &wraps);
    }
    CHECK(wraps > 0);
}

TEST_CASE("at the longest safe length the emulation is still exact and wrap-free") {
    // Entry words chosen (by bisection) so that the safe length is a few
    // thousand residues; targets of exactly that length, full of the model's
    // least likely residue, then sit at the edge of the argument.
    Tally t;
    int edges = 0;
    for (int rep = 0; rep < 8; ++rep) {
        const Hmm h = random_vit_hmm(uniform(20, 120), frand(1.0f, 10.0f));
        VitWordProfile wp = build_vit_profile(build_profile(h));
        const Vit16Plan plan = limit_safe_length(wp, 3000);
        if (!plan.ok || plan.max_len > 20000) continue;
        ++edges;
        // The least likely safe residue: the lowest emission of the model.
        int worst = 0;
        for (int x = 0; x < 20; ++x)
            for (int k = 1; k <= wp.M; ++k)
                if (wp.e(x, k) < wp.e(worst, 1)) worst = x;
        for (uint64_t L : {plan.max_len, plan.max_len / 2 + 1, uint64_t{1}}) {
            std::vector<uint8_t> x(L, static_cast<uint8_t>(worst));
            for (size_t i = 0; i < x.size(); i += 7) x[i] = static_cast<uint8_t>(uniform(0, 19));
            uint64_t wraps = 0;
            const uint32_t want = vit_reference(wp, x), got = vit16_emulate(wp, plan, x, uniform(0, 40), &wraps);
            ++t.compared;
            t.wraps += wraps;
            if (got != want && ++t.bad <= 5)
                MESSAGE("MISMATCH M=" << wp.M << " L=" << L << " (max_len " << plan.max_len << ")");
        }
    }
    MESSAGE(edges << " models with a safe length of at most 20,000, " << t.compared << " targets at or below it");
    CHECK(edges > 0);
    CHECK(t.bad == 0);
    CHECK(t.wraps == 0);
}
