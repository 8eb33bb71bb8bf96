// The ensemble of sampled domains of one region and its clustering into
// envelopes (HMMER's P7_SPENSEMBLE and the end of region_trace_ensemble,
// docs/hmmer-filters.md §16.3).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/base/easel_random.hpp"
#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_specials.hpp"
#include "core/hmmer/domains/dom_trace.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"

namespace warpdp {

// HMMER's defaults (p7_domaindef_Create); floats where HMMER keeps floats,
// since the comparisons are made in float.
struct DomClusterParams {
    int nsamples = 200;          // traces sampled per region
    float min_overlap = 0.8f;    // linked segments overlap this much, in sequence and model
    bool of_smaller = true;      // overlap as a fraction of the smaller segment
    int max_diagdiff = 4;        // and their starts or their ends lie this close to one diagonal
    float min_posterior = 0.25f; // a cluster is kept when this share of samples has it
    float min_endpointp = 0.02f; // widest endpoint with this share of the cluster's samples
};

// One sampled domain (a segment pair): residues i..j, nodes k..m.
struct DomSegment {
    int sample = 0;
    int64_t i = 0, j = 0;
    int k = 0, m = 0;
};

// A kept cluster: its consensus coordinates and the share of samples in it.
struct DomCluster {
    int64_t i = 0, j = 0;
    int k = 0, m = 0;
    float prob = 0.0f;
    int id = 0;  // its number in the single-linkage clustering
};

class DomEnsemble {
public:
    void clear() { segs_.clear(); nsamples_ = 0; }
    // Segments arrive sample by sample, samples numbered 0, 1, ... in order
    // (HMMER's counting of a cluster's samples relies on it); a sample
    // number past the next one is an InternalError.
    void add(int sample, int64_t i, int64_t j, int k, int m);
    int nsamples() const noexcept { return nsamples_; }
    const std::vector<DomSegment>& segments() const noexcept { return segs_; }

    // p7_spensemble_Cluster: single-linkage clusters, those with enough
    // posterior mass, their consensus endpoints, sorted by start (ties in
    // cluster order, as glibc's merge-sorting qsort leaves them).
    std::vector<DomCluster> cluster(const DomClusterParams& p);

    // The cluster number of every segment after cluster() (Easel's
    // breadth-first single linkage, numbering clusters as it finds them).
    const std::vector<int>& assignment() const noexcept { return assignment_; }

private:
    std::vector<DomSegment> segs_;
    int nsamples_ = 0;
    std::vector<int> assignment_;
};

// region_trace_ensemble's last step: of two clusters overlapping by 80% of
// the shorter in sequence, the less probable is dropped; the scan over a
// cluster's successors stops at the first that touches it in exactly 0
// residues, as HMMER's does.
std::vector<DomCluster> dom_drop_dominated(const std::vector<DomCluster>& clusters);

// Samples nsamples traces of a region's Forward matrix (multihit, the
// whole target's length model), reseeding first unless reseed is false,
// and adds each trace's domains in target coordinates (region start ireg).
// on_trace, if given, sees every indexed trace in turn (for null2).
void dom_sample_region(EaselRandom& rng, bool reseed, const FwdProfile& prof, const DomSpecialOdds& odds,
                       const DomMatrix& fwd, int64_t ireg, int nsamples, DomEnsemble& ens,
                       const std::function<void(const DomTrace&)>& on_trace = {});

}  // namespace warpdp
