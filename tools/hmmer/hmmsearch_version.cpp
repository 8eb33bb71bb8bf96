// hmmsearch_version_line: `hmmsearch -h`'s "# HMMER x.y.z (date)" banner.
#include "tools/hmmer/hmmsearch_version.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "tools/common/child_process.hpp"
#include "tools/common/stop_signal_watch.hpp"
#include "tools/common/temp_dir.hpp"

namespace warpdp {

namespace {
std::string resolve(const std::string& program) {
    if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0 ? program : std::string();
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const std::string p = (dir.empty() ? "." : dir) + "/" + program;
        if (::access(p.c_str(), X_OK) == 0) return p;
    }
    return {};
}
}  // namespace

std::string hmmsearch_version_line(const std::string& program) {
    const std::string path = resolve(program);
    if (path.empty()) return "hmmsearch: " + program + " not found (gpu-hmmsearch runs it for the searches it does not cover)\n";
    try {
        TempDir tmp("gpu-hmmsearch");
        SpawnOptions o;
        o.stdout_path = tmp.file("help.txt");
        o.stderr_to_stdout = true;
        ChildProcess child({path, "-h"}, o);
        const StopSignalWatch watch;
        child.wait(watch);
        std::ifstream in(o.stdout_path);
        for (std::string line; std::getline(in, line);)
            if (line.rfind("# HMMER ", 0) == 0) return "hmmsearch: " + path + " (" + line.substr(2) + ")\n";
    } catch (const Error&) {
    }
    return "hmmsearch: " + path + " (it did not say which HMMER it is)\n";
}

}  // namespace warpdp
