// gpu-viterbi's run summary: the --stats JSON (gpu-hmmsearch reads its "Z"
// and "targets_over_100k") and the lines on stderr.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/hmmer/filter_pipeline.hpp"

namespace warpdp {

// F3: with forward, the Forward filter's threshold.
nlohmann::ordered_json viterbi_stats(const FilterRun& res, const std::vector<FilterModel>& models, bool forward,
                                     double F3, unsigned threads);

// One line per model, then the run's (each ending in '\n', after "gpu-viterbi: ").
std::string viterbi_summary(const FilterRun& res, const std::vector<FilterModel>& models, bool forward);

}  // namespace warpdp
