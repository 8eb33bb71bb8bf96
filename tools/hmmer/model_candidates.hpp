// gpu-viterbi's candidates shared out to its models: each row of gpu-msv's
// stream goes to the model its model_index names (checked against the
// model's name), or without that column to the model of its name (then a
// name several models hold is an error). Rows gpu-msv failed (--all) are
// left out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/hmmer/pipeline/candidate_stream.hpp"
#include "tools/hmmer/filter_pipeline.hpp"

namespace warpdp {

// The candidates of `path` (gpu-msv's rows; "-" for stdin) per model, each
// model's empty when `path` is; an empty file is warned of unless `quiet`.
std::vector<FilterCandidates> load_model_candidates(const std::string& path, const std::vector<FilterModel>& models,
                                                    const std::string& hmm_path, const std::string& cand_name,
                                                    const std::string& tool, bool quiet);

// hmm_path and cand_name name the files in error messages.
std::vector<FilterCandidates> candidates_per_model(CandidateStream& stream, const std::vector<FilterModel>& models,
                                                   const std::string& hmm_path, const std::string& cand_name);

// The Viterbi cells of every candidate (target length times model nodes).
uint64_t candidate_cells(const std::vector<FilterCandidates>& candidates, const std::vector<FilterModel>& models);

}  // namespace warpdp
