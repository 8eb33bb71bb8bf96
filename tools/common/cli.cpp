// The command line every warpdp tool shares.
#include "tools/common/cli.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "core/base/errors.hpp"
#include "core/base/usable_cpus.hpp"
#include "kernels/common/gpus.hpp"
#include "warpdp_build_config.hpp"

namespace po = boost::program_options;

namespace warpdp {

namespace {
constexpr uint64_t kMaxThreads = 4096;
}  // namespace

void check_at_most(const std::string& option, uint64_t value, uint64_t max) {
    if (value > max)
        throw UsageError(option + " must be a whole number from 0 to " + std::to_string(max));
}

std::string version_text(const std::string& tool) {
    std::ostringstream s;
    s << tool << " (warpdp) " << WARPDP_VERSION << "\n";
    s << "build: " << WARPDP_BUILD_TYPE << ", CUDA "
      << (built_with_cuda() ? std::string("on (architectures ") + WARPDP_CUDA_ARCHS + ")" : std::string("off"))
      << "\n";
    const auto gpus = list_gpus();
    s << "visible GPUs: " << gpus.size() << "\n";
    for (const auto& g : gpus)
        s << "  cuda:" << g.index << "  " << g.name << ", " << (g.memory_bytes >> 20) << " MiB, compute capability "
          << g.cc_major << "." << g.cc_minor << "\n";
    return s.str();
}

std::string Cli::environment_help() const {
    std::vector<std::pair<std::string, std::string>> vars = environment_;
    vars.emplace_back("WARPDP_PROGRESS_SECONDS",
                      "seconds between progress lines when stderr is not a terminal (default 30)");
    vars.emplace_back("WARPDP_TRACE", "1: a timeline of the run's events on stderr");
    vars.emplace_back("CUDA_VISIBLE_DEVICES", "the GPUs the CUDA driver shows (--device auto uses them)");
    std::string s = "Environment:\n";
    for (const auto& [name, what] : vars) s += "  " + name + std::string(name.size() < 26 ? 26 - name.size() : 1, ' ') + what + "\n";
    return s;
}

Cli::Cli(std::string tool, std::string usage, std::string summary)
    : tool_(std::move(tool)), usage_(std::move(usage)), summary_(std::move(summary)),
      tool_opts_(tool_ + " options") {}

bool Cli::parse(int argc, char** argv) {
    std::string format_list;
    for (size_t i = 0; i < formats_.size(); ++i)
        format_list += (i == 0 ? "" : i + 1 == formats_.size() ? " or " : ", ") + formats_[i];
    po::options_description common("Common options");
    common.add_options()
        ("device", po::value<std::string>(&common_.device)->default_value("auto"),
         "auto (CUDA if a GPU is visible, else CPU), cpu, cuda, or cuda:0,1,...")
        ("threads", po::value<unsigned>(&common_.threads)->default_value(0), "CPU threads (0 = the CPUs this process may use: its affinity and cgroup quota)")
        ("format", po::value<std::string>(&common_.format)->default_value(formats_.front()),
         ("output format: " + format_list).c_str())
        (",o", po::value<std::string>(&common_.output), "write results to FILE (atomically) instead of stdout")
        ("quiet,q", po::bool_switch(&common_.quiet), "no warnings or run summary on stderr")
        ("progress", "show live progress on stderr (default: live on a terminal, else a line every "
                     "$WARPDP_PROGRESS_SECONDS, 30 s)")
        ("no-progress", "never show progress")
        ("help,h", "print this help and exit")
        ("version", "print version, build configuration and visible GPUs, and exit");
    po::options_description all;
    all.add(tool_opts_).add(common);
    try {
        // No abbreviations: "--hm" meaning --hmm today would mean something
        // else, or be an error, once another option starts the same way.
        const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
        po::store(po::command_line_parser(argc, argv).options(all).positional(positional_).style(style).run(), vm_);
        if (vm_.count("help")) {
            std::cout << "Usage: " << usage_ << "\n" << summary_ << "\n\n" << all << "\n" << environment_help();
            return false;
        }
        if (vm_.count("version")) {
            std::cout << version_text(tool_);
            return false;
        }
        po::notify(vm_);
    } catch (const po::error& e) {
        throw UsageError(std::string(e.what()) + " (see --help)");
    }
    check_at_most("--threads", common_.threads, kMaxThreads);
    if (common_.threads == 0) common_.threads = usable_cpus();  // (affinity and cgroup quota)
    if (vm_.count("progress") && vm_.count("no-progress"))
        throw UsageError("--progress and --no-progress are mutually exclusive");
    common_.progress = vm_.count("progress") ? true : vm_.count("no-progress") ? false : ::isatty(2) == 1;
    common_.progress_log = !common_.progress && !vm_.count("no-progress") && ::isatty(2) != 1;
    if (common_.quiet) common_.progress = common_.progress_log = false;
    if (std::find(formats_.begin(), formats_.end(), common_.format) == formats_.end()) {
        std::string list;
        for (const auto& f : formats_) list += (list.empty() ? "" : ", ") + f;
        throw UsageError("unknown --format '" + common_.format + "' (expected " + list + ")");
    }
    return true;
}

}  // namespace warpdp
