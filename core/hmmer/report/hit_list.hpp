// One query's hit list as hmmsearch finishes it: the thresholds of the
// model, sorting, and the reported/included marks with the domain search
// space they fix (docs/hmmer-filters.md §16.6).
#pragma once

#include <cstdint>
#include <vector>

#include "core/hmmer/domains/dom_hit.hpp"
#include "core/hmmer/hmm.hpp"
#include "core/hmmer/report/pipeline_stats.hpp"
#include "core/hmmer/report/report_options.hpp"

namespace warpdp {

// The reporting and inclusion rule of one model. A "by_E" rule compares
// exp(lnP) * Z (sequences) or exp(lnP) * domZ (domains) with the E-value
// threshold, else the bit score with the score threshold.
struct HitThresholds {
    bool by_E = true, dom_by_E = true, inc_by_E = true, incdom_by_E = true;
    double E = 10.0, T = 0, domE = 10.0, domT = 0;
    double incE = 0.01, incT = 0, incdomE = 0.01, incdomT = 0;
    bool use_bit_cutoffs = false;  // --cut_*: every rule is the model's score cutoffs
    double Z = 0, domZ = 0;
    bool Z_from_option = false, domZ_from_option = false;
};

// The thresholds for `hmm` with Z = `ntargets` (targets read) unless -Z sets
// it; domZ stays 0 until threshold_hits() counts the reported targets, unless
// --domZ sets it. Throws InputError when a --cut_* option names a cutoff the
// model lacks (hmmsearch's message).
HitThresholds model_thresholds(const ReportOptions& o, const Hmm& hmm, double ntargets);

bool target_reportable(const HitThresholds& t, float score, double lnP);
bool target_includable(const HitThresholds& t, float score, double lnP);
bool domain_reportable(const HitThresholds& t, float score, double lnP);
bool domain_includable(const HitThresholds& t, float score, double lnP);

// Whether the pipeline keeps a target's hit at all: reportable against the Z
// known when it is scored (hmmsearch without -Z: the targets read so far).
// Only kept hits enter the list; all of them, reported or not, size the
// name columns.
inline bool keeps_hit(const HitThresholds& t, double Z_so_far, float score, double lnP) {
    HitThresholds now = t;
    if (!t.Z_from_option) now.Z = Z_so_far;
    return target_reportable(now, score, lnP);
}

// Best first: larger sortkey, then name (strcmp order), then the first
// domains' alignments (hmmer_alignment_order).
void sort_hits(std::vector<DomHit>& hits);

// hmmsearch's order of two rows (hits, or --pfamtblout's domains) whose
// sortkeys and names are equal, by their alignments' start and end: an
// alignment that runs forward (start < end) before one that does not (a
// one-residue alignment counts as reverse: nhmmer's strand rule, applied to
// proteins too), then by start; -1, 0 (qsort's ties keep their order:
// glibc's qsort is a merge sort, so sort stably) or 1
// (docs/hmmer-filters.md §16.6).
int hmmer_alignment_order(int64_t ia, int64_t ja, int64_t ib, int64_t jb) noexcept;

// Marks the reported and included targets and domains of sorted `hits`, sets
// t.domZ (unless --domZ did), the per-hit counts, and hides the second of two
// domains with the same alignment coordinates (the lower bit score). Returns
// the number of reported and included targets.
struct ThresholdCounts {
    int64_t nreported = 0, nincluded = 0;
};
ThresholdCounts threshold_hits(std::vector<DomHit>& hits, HitThresholds& t);

// Everything a writer needs for one query.
struct QueryReport {
    const Hmm* hmm = nullptr;
    std::vector<DomHit> hits;  // sorted and thresholded
    HitThresholds thresholds;
    ThresholdCounts counts;
    PipelineStats stats;
};

// Sorts and thresholds a query's kept hits (as the pipeline produced them,
// in any order) for the writers. Z is the number of targets read unless -Z.
QueryReport finish_query(const Hmm& hmm, std::vector<DomHit> hits, const ReportOptions& o, const PipelineStats& stats);

}  // namespace warpdp
