#include "core/hmmer/report/hit_list.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/base/errors.hpp"
#include "core/hmmer/pvalue.hpp"

namespace warpdp {

FilterThresholds filter_thresholds(const ReportOptions& o) {
    FilterThresholds f;
    if (o.max) {
        f.F1 = f.F2 = f.F3 = 1.0;
        return f;
    }
    if (o.F1) f.F1 = std::min(1.0, *o.F1);
    if (o.F2) f.F2 = std::min(1.0, *o.F2);
    if (o.F3) f.F3 = std::min(1.0, *o.F3);
    return f;
}

HitThresholds model_thresholds(const ReportOptions& o, const Hmm& hmm, double ntargets) {
    HitThresholds t;
    t.E = o.E.value_or(10.0);
    t.domE = o.domE.value_or(10.0);
    t.incE = o.incE.value_or(0.01);
    t.incdomE = o.incdomE.value_or(0.01);
    if (o.T) t.T = *o.T, t.by_E = false;
    if (o.domT) t.domT = *o.domT, t.dom_by_E = false;
    if (o.incT) t.incT = *o.incT, t.inc_by_E = false;
    if (o.incdomT) t.incdomT = *o.incdomT, t.incdom_by_E = false;
    if (o.cutoff != ModelCutoff::none) {
        const Hmm::Cutoff& c = o.cutoff == ModelCutoff::ga ? hmm.ga : o.cutoff == ModelCutoff::tc ? hmm.tc : hmm.nc;
        const char* label = o.cutoff == ModelCutoff::ga ? "GA" : o.cutoff == ModelCutoff::tc ? "TC" : "NC";
        if (!c.set) throw UsageError(std::string(label) + " bit thresholds unavailable on model " + hmm.name);
        t.by_E = t.dom_by_E = t.inc_by_E = t.incdom_by_E = false;
        t.use_bit_cutoffs = true;
        t.T = t.incT = c.seq;
        t.domT = t.incdomT = c.dom;
    }
    t.Z_from_option = o.Z.has_value();
    t.Z = o.Z.value_or(ntargets);
    t.domZ_from_option = o.domZ.has_value();
    t.domZ = o.domZ.value_or(0.0);
    return t;
}

// Scores are floats compared with double thresholds, as in hmmsearch.
bool target_reportable(const HitThresholds& t, float score, double lnP) {
    if (t.by_E) return hmmer_evalue(lnP, t.Z) <= t.E;
    return score >= t.T;
}

bool target_includable(const HitThresholds& t, float score, double lnP) {
    if (t.inc_by_E) return hmmer_evalue(lnP, t.Z) <= t.incE;
    return score >= t.incT;
}

bool domain_reportable(const HitThresholds& t, float score, double lnP) {
    if (t.dom_by_E) return hmmer_evalue(lnP, t.domZ) <= t.domE;
    return score >= t.domT;
}

bool domain_includable(const HitThresholds& t, float score, double lnP) {
    if (t.incdom_by_E) return hmmer_evalue(lnP, t.domZ) <= t.incdomE;
    return score >= t.incdomT;
}

int hmmer_alignment_order(int64_t ia, int64_t ja, int64_t ib, int64_t jb) noexcept {
    const bool forward_a = ia < ja, forward_b = ib < jb;
    if (forward_a != forward_b) return forward_a ? -1 : 1;
    return ia < ib ? -1 : ia > ib ? 1 : 0;
}

void sort_hits(std::vector<DomHit>& hits) {
    std::stable_sort(hits.begin(), hits.end(), [](const DomHit& a, const DomHit& b) {
        if (a.sortkey != b.sortkey) return a.sortkey > b.sortkey;
        const int c = std::strcmp(a.name.c_str(), b.name.c_str());
        if (c != 0) return c < 0;
        if (a.domains.empty() || b.domains.empty()) return !a.domains.empty() && b.domains.empty();
        const DomDomain &da = a.domains[0], &db = b.domains[0];
        return hmmer_alignment_order(da.iali, da.jali, db.iali, db.jali) < 0;
    });
}

namespace {

// Two envelopes of one target can end in the same alignment (HMMER's bug
// h74); only the better-scoring one is shown. docs/hmmer-filters.md §16.6.
void hide_duplicate_alignments(DomHit& h) {
    if (h.noverlaps == 0) return;
    for (size_t d1 = 0; d1 < h.domains.size(); ++d1)
        for (size_t d2 = d1 + 1; d2 < h.domains.size(); ++d2) {
            DomDomain& a = h.domains[d1];
            DomDomain& b = h.domains[d2];
            if (a.iali != b.iali || a.jali != b.jali) continue;
            DomDomain& gone = a.bitscore >= b.bitscore ? b : a;
            if (gone.is_reported) gone.is_reported = false, --h.nreported;
            if (gone.is_included) gone.is_included = false, --h.nincluded;
        }
}

}  // namespace

ThresholdCounts threshold_hits(std::vector<DomHit>& hits, HitThresholds& t) {
    // With --cut_* the pipeline marks each hit as it is found: targets and
    // domains by their own scores, a domain even in an unreported target.
    for (DomHit& h : hits) {
        h.nreported = h.nincluded = 0;
        h.flags &= ~(kHitReported | kHitIncluded);
        for (DomDomain& d : h.domains) d.is_reported = d.is_included = false;
        const bool duplicate = (h.flags & kHitDuplicate) != 0;
        if (t.use_bit_cutoffs) {
            if (target_reportable(t, h.score, h.lnP)) {
                h.flags |= kHitReported;
                if (target_includable(t, h.score, h.lnP)) h.flags |= kHitIncluded;
            }
            for (DomDomain& d : h.domains)
                if (domain_reportable(t, d.bitscore, d.lnP)) {
                    d.is_reported = true;
                    d.is_included = domain_includable(t, d.bitscore, d.lnP);
                }
        } else if (!duplicate && target_reportable(t, h.score, h.lnP)) {
            h.flags |= kHitReported;
            if (target_includable(t, h.score, h.lnP)) h.flags |= kHitIncluded;
        }
    }
    ThresholdCounts n;
    for (const DomHit& h : hits) {
        if (h.flags & kHitReported) ++n.nreported;
        if (h.flags & kHitIncluded) ++n.nincluded;
    }
    if (!t.domZ_from_option) t.domZ = static_cast<double>(n.nreported);
    // A domain is reported only in a reported target, included only in an
    // included one; both against domZ, known only now.
    if (!t.use_bit_cutoffs)
        for (DomHit& h : hits) {
            if (!(h.flags & kHitReported)) continue;
            for (DomDomain& d : h.domains) {
                if (domain_reportable(t, d.bitscore, d.lnP)) d.is_reported = true;
                if ((h.flags & kHitIncluded) && domain_includable(t, d.bitscore, d.lnP)) d.is_included = true;
            }
        }
    for (DomHit& h : hits) {
        for (const DomDomain& d : h.domains) {
            if (d.is_reported) ++h.nreported;
            if (d.is_included) ++h.nincluded;
        }
        hide_duplicate_alignments(h);
    }
    return n;
}

QueryReport finish_query(const Hmm& hmm, std::vector<DomHit> hits, const ReportOptions& o, const PipelineStats& stats) {
    QueryReport q;
    q.hmm = &hmm;
    q.hits = std::move(hits);
    q.stats = stats;
    q.thresholds = model_thresholds(o, hmm, static_cast<double>(stats.nseqs));
    sort_hits(q.hits);
    q.counts = threshold_hits(q.hits, q.thresholds);
    return q;
}

}  // namespace warpdp
