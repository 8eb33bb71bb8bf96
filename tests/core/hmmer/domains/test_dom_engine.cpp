// The forms of the post-filter stages agree to the bit: the CPU engine
// (vector kernels, threads over targets) gives every target the reference
// engine's outcome, scores, envelopes and alignment strings, on real models
// and fresh random targets with homologous stretches (single, repeated and
// fused domains, so regions are clustered too), whatever the thread count.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/hmmer/domains/dom_engine.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/profile.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

// A stretch emitted along the core model from node a to node b (match
// emissions only), as a crude homolog.
void emit_domain(const Hmm& hmm, int a, int b, std::vector<uint8_t>& out) {
    for (int k = a; k <= b; ++k) {
        std::discrete_distribution<int> pick(&hmm.mat[static_cast<size_t>(k) * hmm.K],
                                             &hmm.mat[static_cast<size_t>(k + 1) * hmm.K]);
        out.push_back(static_cast<uint8_t>(pick(rng())));
    }
}

std::vector<uint8_t> random_target(const Hmm& hmm) {
    std::vector<uint8_t> t;
    const auto background = [&](int n) {
        for (int i = 0; i < n; ++i) t.push_back(static_cast<uint8_t>(uniform(0, 19)));
    };
    background(uniform(0, 60));
    const int domains = uniform(0, 3);
    for (int d = 0; d < domains; ++d) {
        const int a = uniform(1, std::max(1, hmm.M / 4)), b = uniform(std::min(hmm.M, 3 * hmm.M / 4), hmm.M);
        emit_domain(hmm, a, b, t);
        background(uniform(0, 30));
    }
    if (t.empty()) t.push_back(static_cast<uint8_t>(uniform(0, 19)));
    return t;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void check_same(const DomResult& r, const DomResult& c) {
    REQUIRE(static_cast<int>(c.outcome) == static_cast<int>(r.outcome));
    if (r.outcome != DomOutcome::hit) return;
    const DomHit &a = r.hit, &b = c.hit;
    CHECK(same_bits(a.score, b.score));
    CHECK(same_bits(a.pre_score, b.pre_score));
    CHECK(same_bits(a.sum_score, b.sum_score));
    CHECK(same_bits(a.nexpected, b.nexpected));
    CHECK(a.nregions == b.nregions);
    CHECK(a.nclustered == b.nclustered);
    CHECK(a.noverlaps == b.noverlaps);
    CHECK(a.nenvelopes == b.nenvelopes);
    REQUIRE(a.domains.size() == b.domains.size());
    for (size_t d = 0; d < a.domains.size(); ++d) {
        const DomDomain &x = a.domains[d], &y = b.domains[d];
        CHECK(x.ienv == y.ienv);
        CHECK(x.jenv == y.jenv);
        CHECK(same_bits(x.envsc, y.envsc));
        CHECK(same_bits(x.domcorrection, y.domcorrection));
        CHECK(same_bits(x.oasc, y.oasc));
        CHECK(same_bits(x.bitscore, y.bitscore));
        CHECK(x.ad.model == y.ad.model);
        CHECK(x.ad.mline == y.ad.mline);
        CHECK(x.ad.aseq == y.ad.aseq);
        CHECK(x.ad.ppline == y.ad.ppline);
    }
}

}  // namespace

TEST_CASE("the CPU engine gives every target the reference engine's result, at any thread count") {
    const uint64_t s = seed();
    rng().seed(s);
    const std::vector<Hmm> models = read_all_hmms(std::string(WARPDP_TEST_DATA) + "/../../examples/data/tutorial3.hmm");
    auto reference = make_dom_reference_engine();
    int hits = 0, clustered = 0;
    for (const Hmm& hmm : models) {
        const FwdProfile odds = build_fwd_profile(build_profile(hmm));
        const DomModel model{&hmm, &odds};
        std::vector<std::vector<uint8_t>> seqs;
        for (int j = 0; j < 12; ++j) seqs.push_back(random_target(hmm));
        std::vector<std::string> names;
        for (size_t j = 0; j < seqs.size(); ++j) names.push_back("t" + std::to_string(j));
        std::vector<DomTarget> targets;
        for (size_t j = 0; j < seqs.size(); ++j)
            targets.push_back({names[j], {}, {}, seqs[j], static_cast<int64_t>(j)});
        DomSettings settings;
        settings.seed = static_cast<uint32_t>(uniform(1, 1000));
        std::vector<DomResult> want(targets.size());
        reference->search(model, targets, settings, want);
        for (unsigned threads : {1u, 3u}) {
            CAPTURE(hmm.name);
            CAPTURE(threads);
            std::vector<DomResult> got(targets.size());
            make_dom_cpu_engine(threads)->search(model, targets, settings, got);
            for (size_t j = 0; j < targets.size(); ++j) check_same(want[j], got[j]);
        }
        for (const DomResult& r : want) {
            hits += r.outcome == DomOutcome::hit;
            clustered += r.outcome == DomOutcome::hit && r.hit.nclustered > 0;
        }
    }
    // The data reach the stages they are meant to test.
    CHECK(hits >= 10);
    MESSAGE("hits " << hits << ", with clustered regions " << clustered);
}
