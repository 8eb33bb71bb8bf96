// The stochastic traceback against brute force: on toy models whose
// Forward matrix a plain double-precision Forward fills (with and without
// rescaled rows), every sampled trace is a path of the model, the stream
// of traces is fixed by the seed, and each path is sampled as often as its
// posterior probability (its weight over the total weight) says.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>

#include "core/base/easel_random.hpp"
#include "core/base/errors.hpp"
#include "core/hmmer/domains/dom_stotrace.hpp"
#include "dom_toy_model.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

std::string key(const DomTrace& tr) {
    std::string s;
    for (const auto& st : tr.steps)
        s += std::to_string(static_cast<int>(st.st)) + ":" + std::to_string(st.k) + ":" + std::to_string(st.i) + " ";
    return s;
}

struct Case {
    ToyModel model;
    std::vector<int> dsq;
    DomSpecialOdds odds;
    FwdProfile prof;
    DomMatrix fwd;
    double total = 0;
};

Case make_case(int M, int L, bool multihit, bool rescale, double threshold = 1e4) {
    Case c;
    std::mt19937_64& g = rng();
    c.model = random_toy(M, g);
    for (int i = 0; i < L; ++i) c.dsq.push_back(uniform(0, kToyK - 1));
    c.odds = dom_special_odds(static_cast<uint64_t>(L), multihit);
    c.prof = toy_profile(c.model);
    c.total = toy_forward(c.model, c.dsq, c.odds, c.fwd, rescale, threshold);
    return c;
}

// Samples n traces; checks each is a path and that frequent paths come up
// as often as their posterior says (5 sigma + 0.002). Returns the posterior
// mass of the distinct paths seen.
double check_frequencies(const Case& c, int n, uint32_t seed) {
    EaselRandom r(EaselRandom::Kind::fast, seed);
    std::map<std::string, std::pair<int, double>> seen;
    DomTrace tr;
    for (int s = 0; s < n; ++s) {
        dom_stochastic_trace(r, c.prof, c.odds, c.fwd, tr);
        const double w = toy_path_weight(c.model, c.dsq, c.odds, tr);
        REQUIRE_MESSAGE(w > 0.0, "not a path of the model: " << key(tr));
        CHECK(tr.M == c.model.M);
        CHECK(tr.L == static_cast<int64_t>(c.dsq.size()));
        auto& e = seen[key(tr)];
        ++e.first;
        e.second = w / c.total;
    }
    double mass = 0;
    for (const auto& [k, e] : seen) {
        const double p = e.second, f = static_cast<double>(e.first) / n;
        mass += p;
        CHECK_MESSAGE(std::abs(f - p) <= 5.0 * std::sqrt(p * (1 - p) / n) + 0.002, k << " freq " << f << " posterior " << p);
    }
    CHECK(mass <= 1.0 + 1e-4);
    return mass;
}

}  // namespace

TEST_CASE("dom_trace_append and dom_trace_reverse follow HMMER's N/C/J convention: a run's first step emits nothing") {
    // C emitting 3 and 4 after E at residue 2, grown backwards from T
    DomTrace tr;
    dom_trace_append(tr, kStT, 0, 4);
    dom_trace_append(tr, kStC, 0, 4);
    dom_trace_append(tr, kStC, 0, 4);
    dom_trace_append(tr, kStC, 0, 3);
    dom_trace_append(tr, kStE, 0, 2);
    dom_trace_append(tr, kStM, 5, 2, 0.5f);
    dom_trace_append(tr, kStD, 4, 2, 0.5f);
    REQUIRE(tr.steps.size() == 7);
    CHECK(tr.steps[1].i == 0);  // the first C appended follows T
    CHECK(tr.steps[2].i == 4);
    CHECK(tr.steps[5].pp == 0.5f);
    CHECK(tr.steps[6].i == 0);   // D emits nothing
    CHECK(tr.steps[6].pp == 0.0f);
    CHECK(tr.steps[6].k == 4);
    dom_trace_reverse(tr);
    // D4 M5 E C(0) C(3) C(4) T
    CHECK(tr.steps[0].st == kStD);
    CHECK(tr.steps[2].st == kStE);
    CHECK(tr.steps[3].st == kStC);
    CHECK(tr.steps[3].i == 0);
    CHECK(tr.steps[4].i == 3);
    CHECK(tr.steps[5].i == 4);
    CHECK(tr.steps[6].st == kStT);
}

TEST_CASE("dom_trace_index finds each B..E with the residues and nodes of its first and last M") {
    DomTrace tr;
    auto add = [&](DomState st, int k, int64_t i) { tr.steps.push_back(DomTraceStep{st, k, i, 0.0f}); };
    add(kStS, 0, 0), add(kStN, 0, 0), add(kStN, 0, 1), add(kStB, 0, 0);
    add(kStM, 3, 2), add(kStI, 3, 3), add(kStM, 4, 4), add(kStD, 5, 0), add(kStE, 0, 0);
    add(kStJ, 0, 0), add(kStJ, 0, 5), add(kStB, 0, 0);
    add(kStM, 1, 6), add(kStE, 0, 0), add(kStC, 0, 0), add(kStT, 0, 0);
    dom_trace_index(tr);
    REQUIRE(tr.domains.size() == 2);
    CHECK(tr.domains[0].tfrom == 3);
    CHECK(tr.domains[0].tto == 8);
    CHECK(tr.domains[0].sqfrom == 2);
    CHECK(tr.domains[0].sqto == 4);
    CHECK(tr.domains[0].hmmfrom == 3);
    CHECK(tr.domains[0].hmmto == 4);  // the D after the last M does not count
    CHECK(tr.domains[1].tfrom == 11);
    CHECK(tr.domains[1].tto == 13);
    CHECK(tr.domains[1].sqfrom == 6);
    CHECK(tr.domains[1].sqto == 6);
    CHECK(tr.domains[1].hmmfrom == 1);
    CHECK(tr.domains[1].hmmto == 1);
}

TEST_CASE("two-node model, 3 residues, multihit: sampling frequencies are the path posteriors") {
    const Case c = make_case(2, 3, true, false);
    const double mass = check_frequencies(c, 20000, 42u);
    CHECK(mass > 0.995);  // the paths never sampled carry almost nothing
}

TEST_CASE("two-node model, unihit: every trace has exactly one domain, frequencies are the posteriors") {
    const Case c = make_case(2, 4, false, false);
    check_frequencies(c, 20000, 7u);
    EaselRandom r(EaselRandom::Kind::fast, 3u);
    DomTrace tr;
    for (int s = 0; s < 200; ++s) {
        dom_stochastic_trace(r, c.prof, c.odds, c.fwd, tr);
        dom_trace_index(tr);
        CHECK(tr.domains.size() == 1);
    }
}

TEST_CASE("five nodes over two stripes, every row rescaled: the scale factors are honoured") {
    // A threshold of 0 rescales every row with mass, as HMMER does above 1e4.
    const Case c = make_case(5, 4, true, true, 0.0);
    int scaled = 0;
    for (uint64_t i = 1; i <= c.fwd.L(); ++i) scaled += c.fwd.x(i, kDomXScale) != 1.0f;
    REQUIRE(scaled > 0);
    check_frequencies(c, 20000, 42u);
}

TEST_CASE("nine nodes (three stripes, lanes wrapping), longer target: valid paths, indexable, fixed by the seed") {
    const Case c = make_case(9, 12, true, true, 1.0);
    EaselRandom a(EaselRandom::Kind::fast, 42u), b(EaselRandom::Kind::fast, 42u), other(EaselRandom::Kind::fast, 43u);
    DomTrace ta, tb, to;
    int differ = 0;
    for (int s = 0; s < 500; ++s) {
        dom_stochastic_trace(a, c.prof, c.odds, c.fwd, ta);
        dom_stochastic_trace(b, c.prof, c.odds, c.fwd, tb);
        dom_stochastic_trace(other, c.prof, c.odds, c.fwd, to);
        REQUIRE(toy_path_weight(c.model, c.dsq, c.odds, ta) > 0.0);
        REQUIRE(key(ta) == key(tb));
        differ += key(ta) != key(to);
        dom_trace_index(ta);
        REQUIRE(!ta.domains.empty());
        for (const auto& d : ta.domains) {
            CHECK(d.sqfrom >= 1);
            CHECK(d.sqfrom <= d.sqto);
            CHECK(d.sqto <= 12);
            CHECK(d.hmmfrom >= 1);
            CHECK(d.hmmfrom <= d.hmmto);
            CHECK(d.hmmto <= 9);
            CHECK(ta.steps[static_cast<size_t>(d.tfrom)].st == kStB);
            CHECK(ta.steps[static_cast<size_t>(d.tto)].st == kStE);
        }
    }
    CHECK(differ > 0);
    // reseeding replays the stream
    a.reseed(a.seed());
    EaselRandom fresh(EaselRandom::Kind::fast, 42u);
    for (int s = 0; s < 20; ++s) {
        dom_stochastic_trace(a, c.prof, c.odds, c.fwd, ta);
        dom_stochastic_trace(fresh, c.prof, c.odds, c.fwd, tb);
        CHECK(key(ta) == key(tb));
    }
}

TEST_CASE("a matrix that admits no path, or that is not the profile's, is an internal error") {
    Case c = make_case(2, 3, true, false);
    EaselRandom r(EaselRandom::Kind::fast, 1u);
    DomTrace tr;
    DomMatrix parser;
    parser.resize(2, 3, false);
    CHECK_THROWS_AS(dom_stochastic_trace(r, c.prof, c.odds, parser, tr), InternalError);
    for (uint64_t i = 0; i <= 3; ++i)
        for (int s = 0; s < kDomSpecials; ++s) c.fwd.x(i, static_cast<DomSpecial>(s)) = 0.0f;
    for (uint64_t i = 0; i <= 3; ++i)
        for (int q = 0; q < c.fwd.Q(); ++q)
            for (int s = 0; s < kDomCells; ++s)
                for (int z = 0; z < kFwdLanes; ++z) c.fwd.cell(i, q, static_cast<DomCell>(s))[z] = std::nanf("");
    CHECK_THROWS_AS(dom_stochastic_trace(r, c.prof, c.odds, c.fwd, tr), InternalError);
}
