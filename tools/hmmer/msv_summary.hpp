// gpu-msv's run summary: the --stats JSON and the lines on stderr.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/hmmer/msv/msv_model.hpp"
#include "tools/hmmer/msv_stage.hpp"

namespace warpdp {

nlohmann::ordered_json msv_stats(const MsvRun& run, const std::vector<MsvModel>& models, const MsvStage& stage,
                                 unsigned threads);

// One line per model, then the run's (each ending in '\n', after "gpu-msv: ").
std::string msv_summary(const MsvRun& run, const std::vector<MsvModel>& models, const MsvStage& stage);

}  // namespace warpdp
