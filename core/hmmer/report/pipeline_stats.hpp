// What one query's "Internal pipeline statistics summary" counts
// (docs/hmmer-filters.md §8.3, §16.6).
#pragma once

#include <cstdint>

namespace warpdp {

struct PipelineStats {
    int64_t nmodels = 1, nnodes = 0;   // the query: one model of M nodes
    int64_t nseqs = 0, nres = 0;       // targets read (empty ones too) and their residues
    int64_t n_past_msv = 0, n_past_bias = 0, n_past_vit = 0, n_past_fwd = 0;
};

}  // namespace warpdp
