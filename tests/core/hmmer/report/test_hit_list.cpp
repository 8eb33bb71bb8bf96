// The hit list's rules that hmmsearch's outputs on the example data rarely
// reach: the sort's ties, the h74 duplicate hiding, --cut_* marks and domZ.
#include <doctest/doctest.h>

#include <cmath>

#include "core/base/errors.hpp"
#include "core/hmmer/report/hit_list.hpp"

using namespace warpdp;

namespace {

DomHit hit(const std::string& name, double lnP, float score, int64_t iali) {
    DomHit h;
    h.name = name;
    h.lnP = lnP;
    h.score = score;
    h.sortkey = -lnP;
    DomDomain d;
    d.iali = iali;
    d.jali = iali + 10;
    d.lnP = lnP;
    d.bitscore = score;
    h.domains.push_back(d);
    return h;
}

}  // namespace

TEST_CASE("sorting: larger sortkey first, then name in strcmp order, then alignment start") {
    std::vector<DomHit> hits = {hit("b", -5, 1, 1), hit("a", -5, 1, 9), hit("a", -5, 1, 3), hit("Z", -9, 1, 1)};
    sort_hits(hits);
    CHECK(hits[0].name == "Z");
    CHECK(hits[1].name == "a");
    CHECK(hits[1].domains[0].iali == 3);
    CHECK(hits[2].domains[0].iali == 9);
    CHECK(hits[3].name == "b");
}

TEST_CASE("sorting ties: forward alignments before one-residue ones, whatever their starts; full ties keep their order") {
    CHECK(hmmer_alignment_order(153, 158, 22, 22) < 0);  // hmmsearch's --pfamtblout puts 153..158 first
    CHECK(hmmer_alignment_order(22, 22, 153, 158) > 0);
    CHECK(hmmer_alignment_order(3, 9, 5, 6) < 0);
    CHECK(hmmer_alignment_order(7, 7, 5, 5) > 0);
    CHECK(hmmer_alignment_order(4, 9, 4, 20) == 0);
    std::vector<DomHit> hits = {hit("a", -5, 1, 40), hit("a", -5, 2, 40), hit("a", -5, 3, 9)};
    hits[2].domains[0].jali = 9;  // one residue
    sort_hits(hits);
    CHECK(hits[0].score == 1);  // equal keys: file order
    CHECK(hits[1].score == 2);
    CHECK(hits[2].score == 3);
}

TEST_CASE("thresholds: domZ is the number of reported targets; a domain is included only in an included target") {
    ReportOptions o;
    Hmm hmm;
    // E = P * 100: 1e-4, 5, 100.
    std::vector<DomHit> hits = {hit("x", std::log(1e-6), 30, 1), hit("y", std::log(5e-2), 20, 1),
                                hit("z", std::log(1.0), 1, 1)};
    hits[1].domains[0].lnP = std::log(1e-4);  // a strong domain in a target that is not included
    HitThresholds t = model_thresholds(o, hmm, 100);
    const ThresholdCounts n = threshold_hits(hits, t);
    CHECK(n.nreported == 2);
    CHECK(n.nincluded == 1);
    CHECK(t.domZ == 2);
    CHECK(hits[0].domains[0].is_included);
    CHECK(hits[1].domains[0].is_reported);
    CHECK(!hits[1].domains[0].is_included);
    CHECK(!(hits[2].flags & kHitReported));
    CHECK(hits[2].nreported == 0);
}

TEST_CASE("two domains with one alignment: the lower bit score is hidden") {
    ReportOptions o;
    Hmm hmm;
    std::vector<DomHit> hits = {hit("x", std::log(1e-9), 30, 5)};
    DomDomain twin = hits[0].domains[0];
    twin.bitscore = 40;  // the better one comes second
    hits[0].domains.push_back(twin);
    hits[0].noverlaps = 1;
    HitThresholds t = model_thresholds(o, hmm, 1);
    threshold_hits(hits, t);
    CHECK(!hits[0].domains[0].is_reported);
    CHECK(hits[0].domains[1].is_reported);
    CHECK(hits[0].nreported == 1);
    CHECK(hits[0].nincluded == 1);
}

TEST_CASE("--cut_ga: the model's cutoffs, or hmmsearch's refusal") {
    ReportOptions o;
    o.cutoff = ModelCutoff::ga;
    Hmm hmm;
    hmm.name = "m";
    CHECK_THROWS_WITH_AS(model_thresholds(o, hmm, 1), "GA bit thresholds unavailable on model m", UsageError);
    hmm.ga = {true, 25.0f, 20.0f};
    std::vector<DomHit> hits = {hit("x", 0, 26, 1), hit("y", 0, 24, 1)};
    hits[1].domains[0].bitscore = 21;  // marked even though its target is not reported
    HitThresholds t = model_thresholds(o, hmm, 1);
    const ThresholdCounts n = threshold_hits(hits, t);
    CHECK(n.nreported == 1);
    CHECK(n.nincluded == 1);
    CHECK(hits[1].domains[0].is_reported);
    CHECK(hits[1].nreported == 1);
}
