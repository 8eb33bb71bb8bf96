// The one place where errors become messages and exit codes. Each tool's
// main() is `return warpdp::run_tool("gpu-msv", argc, argv, body);`.
// Exit codes: 0 success (and a reader that closed our stdout early),
// 1 usage, 2 bad input, 3 resources (GPU, memory, disk), 4 internal error.
#pragma once

#include <functional>
#include <string>

namespace warpdp {

int run_tool(const std::string& tool, int argc, char** argv,
             const std::function<int(int, char**)>& body);

// "TOOL: warning: ..." on stderr (tools pass --quiet through by not calling it).
void warn(const std::string& tool, const std::string& message);

}  // namespace warpdp
