// ToolOutputs: the outputs of one run, committed by one policy.
#include "tools/common/tool_outputs.hpp"

#include "core/base/trace.hpp"

namespace warpdp {

ToolOutputs::ToolOutputs(const std::string& output, const std::string& stats) {
    files_.push_back(std::make_unique<OutputFile>(output));
    if (!stats.empty()) stats_ = std::make_unique<OutputFile>(stats);
}

OutputFile& ToolOutputs::add(const std::string& path) {
    files_.push_back(std::make_unique<OutputFile>(path));
    return *files_.back();
}

void ToolOutputs::commit(const nlohmann::ordered_json& stats) {
    if (stats_) stats_->write(stats.dump(2) + "\n");
    for (auto& f : files_) f->flush();
    if (stats_) stats_->flush();
    for (auto& f : files_) f->commit();
    if (stats_) stats_->commit();
    trace_event("outputs-committed");
}

}  // namespace warpdp
