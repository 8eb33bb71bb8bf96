// Finding the regions of a target from its posterior decoding, on
// hand-built posteriors with known regions (HMMER's heuristics: a region
// opens where mocc reaches rt1, starts after the last residue before it
// that is mostly not a begin, closes where the residue is mostly an end)
// and on random ones.
#include <doctest/doctest.h>

#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/domains/dom_regions.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

// Posteriors of L residues: mocc per residue, B and E expectations
// placed at residues, accumulated into btot / etot.
struct Post {
    std::vector<float> mocc, btot, etot;
    explicit Post(int L) : mocc(static_cast<size_t>(L) + 1, 0.0f), bocc(mocc), eocc(mocc) {}
    void core(int from, int to, float p) {
        for (int i = from; i <= to; ++i) mocc[static_cast<size_t>(i)] = p;
    }
    void begin(int i, float p) { bocc[static_cast<size_t>(i)] += p; }
    void end(int i, float p) { eocc[static_cast<size_t>(i)] += p; }
    void finish() {
        btot.assign(mocc.size(), 0.0f);
        etot.assign(mocc.size(), 0.0f);
        for (size_t i = 1; i < mocc.size(); ++i) {
            btot[i] = btot[i - 1] + bocc[i];
            etot[i] = etot[i - 1] + eocc[i];
        }
    }
    std::vector<float> bocc, eocc;
};

}  // namespace

TEST_CASE("two separate domains give two single-domain regions, from their begin to their end") {
    Post p(40);
    p.core(5, 12, 0.9f), p.begin(5, 0.95f), p.end(12, 0.95f);
    p.core(20, 31, 0.8f), p.begin(20, 0.8f), p.end(31, 0.8f);
    p.finish();
    const auto r = dom_find_regions(p.mocc, p.btot, p.etot);
    REQUIRE(r.size() == 2);
    CHECK(r[0].i == 5);
    CHECK(r[0].j == 12);
    CHECK(!r[0].multidomain);
    CHECK(r[1].i == 20);
    CHECK(r[1].j == 31);
    CHECK(!r[1].multidomain);
}

TEST_CASE("a region whose middle is likely an end followed by a begin is multi-domain") {
    Post p(40);
    p.core(5, 25, 0.9f);
    p.begin(5, 0.9f);
    p.end(14, 0.5f), p.begin(15, 0.5f);  // mocc - 0.5 stays above rt2: the region goes on
    p.end(25, 0.9f);
    p.finish();
    const auto r = dom_find_regions(p.mocc, p.btot, p.etot);
    REQUIRE(r.size() == 1);
    CHECK(r[0].i == 5);
    CHECK(r[0].j == 25);
    CHECK(r[0].multidomain);
    CHECK(dom_is_multidomain_region(p.btot, p.etot, 5, 25, 0.5f));
    CHECK(!dom_is_multidomain_region(p.btot, p.etot, 5, 25, 0.51f));
    // E before the split and B after it are each 0.5; below rt3 = 0.2 is
    // needed for a single domain, so a weaker split does not count
    Post q(40);
    q.core(5, 25, 0.9f), q.begin(5, 0.9f), q.end(14, 0.15f), q.begin(15, 0.15f), q.end(25, 0.9f);
    q.finish();
    CHECK(!dom_find_regions(q.mocc, q.btot, q.etot)[0].multidomain);
}

TEST_CASE("the start follows the last residue before the trigger that is mostly not a begin") {
    Post p(30);
    p.core(3, 4, 0.15f);             // in a core state but below rt1: no trigger, not a begin
    p.core(5, 10, 0.9f), p.begin(5, 0.3f), p.end(10, 0.9f);
    p.finish();
    // residues 3, 4: mocc - bocc = 0.15 >= rt2, so the start stays at 2;
    // residue 5: 0.9 - 0.3 >= rt2 too, and triggers
    auto r = dom_find_regions(p.mocc, p.btot, p.etot);
    REQUIRE(r.size() == 1);
    CHECK(r[0].i == 2);
    CHECK(r[0].j == 10);
    // with no quiet residue before it, the start is the first residue
    Post q(20);
    q.core(1, 8, 0.9f), q.begin(3, 0.4f), q.end(8, 0.9f);
    q.finish();
    r = dom_find_regions(q.mocc, q.btot, q.etot);
    REQUIRE(r.size() == 1);
    CHECK(r[0].i == 1);
    CHECK(r[0].j == 8);
}

TEST_CASE("a region still open at the last residue is not reported; thresholds apply as >= rt1 and < rt2") {
    Post p(20);
    p.core(15, 20, 0.9f), p.begin(15, 0.9f);
    p.finish();
    CHECK(dom_find_regions(p.mocc, p.btot, p.etot).empty());
    // mocc exactly rt1 triggers (residue 5 is not mostly a begin, so the
    // region starts at 4), and the next, empty residue closes it; mocc just
    // below rt1 does not trigger
    Post q(20);
    q.core(5, 5, 0.25f);
    q.finish();
    const auto r = dom_find_regions(q.mocc, q.btot, q.etot);
    REQUIRE(r.size() == 1);
    CHECK(r[0].i == 4);
    CHECK(r[0].j == 6);
    q.core(5, 5, 0.2499f);
    CHECK(dom_find_regions(q.mocc, q.btot, q.etot).empty());
    CHECK_THROWS_AS(dom_find_regions(q.mocc, q.btot, std::vector<float>(3, 0.0f)), InternalError);
}

TEST_CASE("random posteriors: regions are ordered, disjoint, inside 1..L, and the same on a second call") {
    for (int round = 0; round < 200; ++round) {
        const int L = uniform(1, 300);
        Post p(L);
        for (int i = 1; i <= L; ++i) {
            p.mocc[static_cast<size_t>(i)] = static_cast<float>(uniform(0, 100)) / 100.0f;
            p.begin(i, static_cast<float>(uniform(0, 30)) / 100.0f);
            p.end(i, static_cast<float>(uniform(0, 30)) / 100.0f);
        }
        p.finish();
        const auto r = dom_find_regions(p.mocc, p.btot, p.etot);
        const auto again = dom_find_regions(p.mocc, p.btot, p.etot);
        REQUIRE(r.size() == again.size());
        int64_t last = 0;
        for (size_t x = 0; x < r.size(); ++x) {
            CHECK(r[x].i > last);
            CHECK(r[x].i < r[x].j);  // a region closes on a later residue than the one that opened it
            CHECK(r[x].j <= L);
            CHECK(r[x].i == again[x].i);
            CHECK(r[x].j == again[x].j);
            CHECK(r[x].multidomain == again[x].multidomain);
            CHECK(r[x].multidomain == dom_is_multidomain_region(p.btot, p.etot, r[x].i, r[x].j, 0.20f));
            last = r[x].j;
        }
    }
}
