// A run's output files, made before any work and committed together: the
// commit step of the run skeleton (docs/architecture.md, "The run skeleton").
// Each file follows OutputFile's policy (docs/architecture.md, "Outputs").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/io/output_file.hpp"

namespace warpdp {

class ToolOutputs {
public:
    // -o (stdout when empty or "-") and --stats (none when empty). Both are
    // made now, so a path that cannot be written fails before any work.
    ToolOutputs(const std::string& output, const std::string& stats);

    OutputFile& out() { return *files_.front(); }
    // Another output (--survivors, ...), made now; committed with the others.
    OutputFile& add(const std::string& path);
    bool has_stats() const noexcept { return stats_ != nullptr; }

    // The one commit: the summary into --stats, every output flushed (a full
    // disk fails here, before any file is replaced), then each committed in
    // the order made: -o, the added ones, --stats. Once only.
    void commit(const nlohmann::ordered_json& stats);

private:
    std::vector<std::unique_ptr<OutputFile>> files_;  // -o first
    std::unique_ptr<OutputFile> stats_;
};

}  // namespace warpdp
