// Where the domains of a target lie, from its posterior decoding (the
// region loop of HMMER's p7_domaindef_ByPosteriorHeuristics and
// is_multidomain_region, docs/hmmer-filters.md §16.3).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace warpdp {

struct DomRegionThresholds {
    float rt1 = 0.25f;  // mocc at least this opens a region
    float rt2 = 0.10f;  // mocc minus the begin (end) mass below this moves the start (closes it)
    float rt3 = 0.20f;  // expected E-then-B count at least this: several domains
};

struct DomRegion {
    int64_t i = 0, j = 0;       // residues, 1-based inclusive
    bool multidomain = false;   // to be resolved by the trace ensemble
};

// mocc, btot, etot: index 0..L, [0] = 0; mocc[i] the probability that a
// core state emits residue i, btot / etot the expected numbers of B / E
// up to i. A region still open at L is not reported, as in HMMER.
std::vector<DomRegion> dom_find_regions(std::span<const float> mocc, std::span<const float> btot,
                                        std::span<const float> etot, const DomRegionThresholds& t = {});

// True when some split z of i..j has at least rt3 expected E up to z and
// rt3 expected B from z on.
bool dom_is_multidomain_region(std::span<const float> btot, std::span<const float> etot, int64_t i, int64_t j,
                               float rt3);

}  // namespace warpdp
