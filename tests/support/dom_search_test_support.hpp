// One model's post-filter search on fresh random targets with homologous
// stretches (single, repeated and fused domains), the reference engine's
// results beside them, and the bit-for-bit comparison of two results: what
// the engine tests of every form share.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/hmmer/domains/dom_engine.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/profile.hpp"
#include "test_support.hpp"

namespace warpdp::test {

// A stretch emitted along the core model from node a to node b (match
// emissions only), as a crude homolog.
inline void emit_domain(const Hmm& hmm, int a, int b, std::vector<uint8_t>& out) {
    for (int k = a; k <= b; ++k) {
        std::discrete_distribution<int> pick(&hmm.mat[static_cast<size_t>(k) * hmm.K],
                                             &hmm.mat[static_cast<size_t>(k + 1) * hmm.K]);
        out.push_back(static_cast<uint8_t>(pick(rng())));
    }
}

inline std::vector<uint8_t> random_target(const Hmm& hmm) {
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

inline bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline void check_same(const DomResult& r, const DomResult& c) {
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

// One model's search: fresh targets, and the reference engine's results.
struct Search {
    const Hmm* hmm = nullptr;
    FwdProfile odds;
    std::vector<std::vector<uint8_t>> seqs;
    std::vector<std::string> names;
    std::vector<DomTarget> targets;
    DomSettings settings;
    std::vector<DomResult> want;

    Search(const Hmm& h, int ntargets) : hmm(&h), odds(build_fwd_profile(build_profile(h))) {
        for (int j = 0; j < ntargets; ++j) seqs.push_back(random_target(h));
        for (size_t j = 0; j < seqs.size(); ++j) names.push_back("t" + std::to_string(j));
        for (size_t j = 0; j < seqs.size(); ++j)
            targets.push_back({names[j], {}, {}, seqs[j], static_cast<int64_t>(j)});
        settings.seed = static_cast<uint32_t>(uniform(1, 1000));
        want = run(*make_dom_reference_engine());
    }
    DomModel model() const { return {hmm, &odds}; }
    std::vector<DomResult> run(DomEngine& engine) const {
        std::vector<DomResult> got(targets.size());
        engine.search(model(), targets, settings, got);
        return got;
    }
};

inline std::vector<Search> searches(int ntargets) {
    static const std::vector<Hmm> models =
        read_all_hmms(std::string(WARPDP_TEST_DATA) + "/../../examples/data/tutorial3.hmm");
    std::vector<Search> out;
    for (const Hmm& hmm : models) out.emplace_back(hmm, ntargets);
    return out;
}

}  // namespace warpdp::test
