// gpu-viterbi's options as its main reads them, the checks of how they
// combine, and the filter pipeline's settings they give.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "tools/common/cli.hpp"
#include "tools/hmmer/filter_pipeline.hpp"
#include "tools/hmmer/hmmer_real.hpp"

namespace warpdp {

struct ViterbiArgs {
    std::string hmm, db, candidates, survivors, model_survivors, stats;
    HmmerReal F1{0.02}, F2{1e-3}, F3{1e-5};
    size_t spread = 0;
    uint64_t chunk_residues = 0;
    bool all = false, msv = false, nobias = false, forward = false, in_place = false;
};

// gpu-viterbi's own options and positional arguments, bound to `a`.
void add_viterbi_options(Cli& cli, ViterbiArgs& a);

// check_viterbi_args with what `cli` parsed, then the outputs checked
// against the inputs and each other (UsageError).
void check_viterbi_options(const Cli& cli, const ViterbiArgs& a);

// Throws UsageError for options that do not go together (f1_given,
// f3_given: --F1, --F3 given on the command line).
void check_viterbi_args(const ViterbiArgs& a, bool f1_given, bool f3_given);

// The pipeline's settings. Any threshold is taken as hmmsearch takes it: a
// target passes unless its P-value is above (so NaN passes all, and 0 or
// less only P = 0 or NaN); above 1 is 1.
FilterSettings viterbi_filter_settings(const ViterbiArgs& a, const CommonOptions& common, const std::string& tool);

}  // namespace warpdp
