// Clustering sampled domains into envelopes, as HMMER's P7_SPENSEMBLE
// does: the linkage rule at its edges, Easel's cluster numbering, the
// posterior and endpoint thresholds on ensembles built to have a known
// answer, the removal of dominated clusters, and properties of random
// ensembles and of ensembles sampled from a toy model's Forward matrix.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "core/base/errors.hpp"
#include "core/hmmer/domains/dom_ensemble.hpp"
#include "dom_toy_model.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

DomEnsemble one_per_sample(const std::vector<DomSegment>& segs) {
    DomEnsemble e;
    for (size_t s = 0; s < segs.size(); ++s) e.add(static_cast<int>(s), segs[s].i, segs[s].j, segs[s].k, segs[s].m);
    return e;
}

DomClusterParams all_kept() {
    DomClusterParams p;
    p.min_posterior = 0.0f;
    return p;
}

}  // namespace

TEST_CASE("linkage: 80% overlap of the smaller in sequence and model, then starts or ends within 4 diagonals") {
    const DomClusterParams p = all_kept();
    auto nclusters = [&](std::vector<DomSegment> s) {
        auto e = one_per_sample(s);
        e.cluster(p);
        return *std::max_element(e.assignment().begin(), e.assignment().end()) + 1;
    };
    // identical segments link
    CHECK(nclusters({{0, 10, 59, 1, 50}, {0, 10, 59, 1, 50}}) == 1);
    // 40 of 50 residues overlap (80%): linked; 39 of 50: not
    CHECK(nclusters({{0, 10, 59, 1, 100}, {0, 20, 69, 11, 110}}) == 1);
    CHECK(nclusters({{0, 10, 59, 1, 100}, {0, 21, 70, 12, 111}}) == 2);
    // the same shift in the model: 50 - 11 = 39 of 50 nodes, too few
    CHECK(nclusters({{0, 10, 59, 1, 50}, {0, 20, 69, 11, 60}}) == 2);
    // the model overlap has no +1: one-node segments on the same node do not link
    CHECK(nclusters({{0, 10, 10, 7, 7}, {0, 10, 10, 7, 7}}) == 2);
    // same residues and nodes, diagonals 4 apart at the start: linked; 5 apart at both ends: not
    CHECK(nclusters({{0, 100, 199, 1, 100}, {0, 100, 199, 1, 100}, {0, 104, 199, 1, 96}}) == 1);
    CHECK(nclusters({{0, 100, 199, 1, 100}, {0, 105, 204, 1, 100}}) == 2);
    // of_smaller false: the overlap is a share of the larger segment
    DomClusterParams larger = p;
    larger.of_smaller = false;
    auto e = one_per_sample({{0, 10, 109, 1, 100}, {0, 10, 59, 1, 50}});
    e.cluster(p);
    CHECK(e.assignment()[0] == e.assignment()[1]);
    e.cluster(larger);
    CHECK(e.assignment()[0] != e.assignment()[1]);
}

TEST_CASE("single linkage numbers clusters in Easel's order: a linked vertex's hole takes the top of the stack") {
    // 0 links 3 only; the stack of unvisited vertices becomes 4 1 2, so 2
    // opens cluster 1 before 1 opens cluster 2.
    const DomSegment a{0, 10, 59, 1, 50}, far1{0, 200, 249, 1, 50}, far2{0, 400, 449, 1, 50}, far4{0, 600, 649, 1, 50};
    auto e = one_per_sample({a, far1, far2, a, far4});
    e.cluster(all_kept());
    CHECK(e.assignment() == std::vector<int>{0, 2, 1, 0, 3});
    // chains link transitively
    // (3 overlaps 0 by 38 of 50 residues, too few, but links 2, which links 0)
    auto chain = one_per_sample({{0, 10, 59, 1, 50}, {0, 300, 349, 1, 50}, {0, 13, 62, 4, 53}, {0, 22, 71, 13, 62}});
    chain.cluster(all_kept());
    CHECK(chain.assignment()[0] == chain.assignment()[2]);
    CHECK(chain.assignment()[0] == chain.assignment()[3]);
    CHECK(chain.assignment()[0] != chain.assignment()[1]);
}

TEST_CASE("a cluster's probability counts samples, not segments; clusters below min_posterior are dropped") {
    DomEnsemble e;
    // 200 samples: every one has a domain at 10..59; 50 (25%) also one at
    // 300..349 and 40 (20%) one at 600..649; sample 0 has its first domain
    // split in two pieces that both link to the cluster.
    for (int s = 0; s < 200; ++s) {
        e.add(s, 10, 59, 1, 50);
        if (s == 0) e.add(s, 12, 59, 3, 50);
        if (s % 4 == 1) e.add(s, 300, 349, 1, 50);
        if (s % 5 == 2) e.add(s, 600, 649, 1, 50);
    }
    CHECK(e.nsamples() == 200);
    const auto cl = e.cluster(DomClusterParams{});
    REQUIRE(cl.size() == 2);
    CHECK(cl[0].i == 10);
    CHECK(cl[0].prob == 1.0f);
    CHECK(cl[1].i == 300);
    CHECK(cl[1].prob == 0.25f);  // exactly the threshold: kept
}

TEST_CASE("consensus endpoints: the widest value that at least ceil(2% of the samples) segments share") {
    // 200 samples of one domain: threshold ceil(200 * 0.02) = 4 segments.
    DomEnsemble e;
    int s = 0;
    auto put = [&](int n, int64_t i, int64_t j, int k, int m) {
        for (int c = 0; c < n; ++c) e.add(s++, i, j, k, m);
    };
    put(150, 20, 80, 5, 60);
    put(40, 18, 82, 3, 62);  // widest with enough support
    put(4, 17, 80, 5, 60);   // starts at 17: exactly 4, enough
    put(3, 15, 85, 1, 64);   // 3 < 4: too few to widen anything
    put(3, 20, 83, 5, 60);   // 3 < 4
    const auto cl = e.cluster(DomClusterParams{});
    REQUIRE(cl.size() == 1);
    CHECK(cl[0].i == 17);
    CHECK(cl[0].j == 82);
    CHECK(cl[0].k == 3);
    CHECK(cl[0].m == 62);
}

TEST_CASE("when no endpoint value has enough support, the most frequent one (the lowest of ties) is taken") {
    // 100 samples of one domain, threshold ceil(100 * 0.02) = 2; every end
    // distinct, so none has 2 and the first of the equal counts wins: the
    // lowest end, not the widest.
    DomEnsemble e;
    for (int s = 0; s < 100; ++s) e.add(s, 1000, 1100 + s, 1, 100);
    const auto cl = e.cluster(DomClusterParams{});
    REQUIRE(cl.size() == 1);
    CHECK(cl[0].i == 1000);
    CHECK(cl[0].j == 1100);
}

TEST_CASE("clusters come out sorted by start; ties keep their cluster order") {
    DomEnsemble e;
    for (int s = 0; s < 10; ++s) {
        e.add(s, 500, 549, 1, 50);
        e.add(s, 100, 149, 1, 50);
        e.add(s, 100, 149, 60, 109);  // same residues, other nodes: its own cluster
    }
    const auto cl = e.cluster(DomClusterParams{});
    REQUIRE(cl.size() == 3);
    CHECK(cl[0].i == 100);
    CHECK(cl[1].i == 100);
    CHECK(cl[2].i == 500);
    CHECK(cl[0].id < cl[1].id);
    CHECK(cl[0].k + cl[1].k == 61);
}

TEST_CASE("add refuses a sample number beyond the next one") {
    DomEnsemble e;
    e.add(0, 1, 10, 1, 10);
    CHECK_THROWS_AS(e.add(2, 1, 10, 1, 10), InternalError);
    e.add(1, 1, 10, 1, 10);
    CHECK(e.nsamples() == 2);
    e.clear();
    CHECK(e.nsamples() == 0);
    CHECK(e.segments().empty());
}

TEST_CASE("dominated clusters: of two overlapping by 80% of the shorter, the less probable goes (ties: the first)") {
    std::vector<DomCluster> cl = {{10, 109, 1, 100, 0.9f, 0}, {20, 119, 1, 100, 0.5f, 1}, {300, 399, 1, 100, 0.3f, 2}};
    auto kept = dom_drop_dominated(cl);
    REQUIRE(kept.size() == 2);
    CHECK(kept[0].id == 0);
    CHECK(kept[1].id == 2);
    cl[1].prob = 0.9f;
    kept = dom_drop_dominated(cl);
    REQUIRE(kept.size() == 2);
    CHECK(kept[0].id == 1);
    // 79 of 100 overlapping: both kept
    kept = dom_drop_dominated({{10, 109, 1, 100, 0.9f, 0}, {31, 130, 1, 100, 0.5f, 1}});
    CHECK(kept.size() == 2);
    // the scan from a cluster stops at one that overlaps it by exactly 0
    // residues (adjacent), as HMMER's does; then a later dominated one survives
    kept = dom_drop_dominated({{1, 10, 1, 10, 0.9f, 0}, {11, 20, 1, 10, 0.9f, 1}, {1, 10, 1, 10, 0.5f, 2}});
    CHECK(kept.size() == 3);
}

TEST_CASE("random ensembles: clusters lie within their segments' span, are sorted, meet the thresholds, and repeat") {
    for (int round = 0; round < 40; ++round) {
        DomEnsemble e;
        const int ns = uniform(1, 200);
        const int64_t L = uniform(20, 400);
        for (int s = 0; s < ns; ++s) {
            const int nd = uniform(1, 3);
            for (int d = 0; d < nd; ++d) {
                const int64_t i = uniform(1, static_cast<int>(L));
                const int64_t j = uniform(static_cast<int>(i), static_cast<int>(std::min<int64_t>(L, i + 60)));
                const int k = uniform(1, 30), m = uniform(k, 40);
                e.add(s, i, j, k, m);
            }
        }
        const DomClusterParams p;
        const auto cl = e.cluster(p);
        const auto again = e.cluster(p);
        REQUIRE(cl.size() == again.size());
        for (size_t c = 0; c < cl.size(); ++c) {
            CHECK(cl[c].i == again[c].i);
            CHECK(cl[c].j == again[c].j);
            CHECK(cl[c].prob >= p.min_posterior);
            CHECK(cl[c].prob <= 1.0f);
            CHECK(cl[c].i <= cl[c].j);
            CHECK(cl[c].k <= cl[c].m);
            if (c > 0) CHECK(cl[c - 1].i <= cl[c].i);
            int64_t lo = L + 1, hi = 0;
            for (size_t h = 0; h < e.segments().size(); ++h)
                if (e.assignment()[h] == cl[c].id) lo = std::min(lo, e.segments()[h].i), hi = std::max(hi, e.segments()[h].j);
            CHECK(cl[c].i >= lo);
            CHECK(cl[c].j <= hi);
        }
        const auto kept = dom_drop_dominated(cl);
        CHECK(kept.size() <= cl.size());
        CHECK(std::is_sorted(kept.begin(), kept.end(), [](const DomCluster& a, const DomCluster& b) { return a.i < b.i; }));
    }
}

TEST_CASE("dom_sample_region: segments in target coordinates, one callback per trace, reseeding replays the ensemble") {
    std::mt19937_64& g = rng();
    const ToyModel t = random_toy(6, g);
    std::vector<int> dsq;
    for (int i = 0; i < 15; ++i) dsq.push_back(uniform(0, kToyK - 1));
    const DomSpecialOdds odds = dom_special_odds(500, true);  // the whole target's length model
    DomMatrix fwd;
    toy_forward(t, dsq, odds, fwd, true);
    const FwdProfile prof = toy_profile(t);
    EaselRandom r(EaselRandom::Kind::fast, 42u);
    DomEnsemble e1, e2, e3;
    int calls = 0;
    dom_sample_region(r, true, prof, odds, fwd, 101, 200, e1, [&](const DomTrace& tr) {
        ++calls;
        CHECK(!tr.domains.empty());
    });
    CHECK(calls == 200);
    CHECK(e1.nsamples() == 200);
    for (const auto& s : e1.segments()) {
        CHECK(s.i >= 101);
        CHECK(s.j <= 115);
        CHECK(s.i <= s.j);
    }
    dom_sample_region(r, true, prof, odds, fwd, 101, 200, e2);
    dom_sample_region(r, false, prof, odds, fwd, 101, 200, e3);
    auto same = [](const DomEnsemble& a, const DomEnsemble& b) {
        if (a.segments().size() != b.segments().size()) return false;
        for (size_t h = 0; h < a.segments().size(); ++h) {
            const auto &x = a.segments()[h], &y = b.segments()[h];
            if (x.sample != y.sample || x.i != y.i || x.j != y.j || x.k != y.k || x.m != y.m) return false;
        }
        return true;
    };
    CHECK(same(e1, e2));
    CHECK(!same(e2, e3));  // without reseeding the stream goes on
    const auto cl = dom_drop_dominated(e1.cluster(DomClusterParams{}));
    for (const auto& c : cl) {
        CHECK(c.i >= 101);
        CHECK(c.j <= 115);
    }
}
