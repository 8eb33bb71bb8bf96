// The command-line conventions every warpdp tool shares (Boost.Program_options):
//   --device auto|cpu|cuda|cuda:0,1   --threads N   --format tsv|jsonl   -o FILE
//   --quiet   --progress/--no-progress   --help   --version
// A tool adds its own options to tool_options() before parse().
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/io/distinct_paths.hpp"

namespace warpdp {

struct CommonOptions {
    std::string device = "auto";
    unsigned threads = 0;  // resolved: never 0 after parse()
    std::string format = "tsv";
    std::string output;    // empty: stdout
    // -o as refuse_shared_paths() takes it: "-" for stdout.
    NamedPath output_path() const { return {"-o", output.empty() ? "-" : output}; }
    bool quiet = false;
    bool progress = false;      // live progress: on by default only when stderr is a terminal
    bool progress_log = false;  // a progress line now and then: stderr is a file or pipe (tools/common/progress.hpp)
};

class Cli {
public:
    Cli(std::string tool, std::string usage, std::string summary);
    boost::program_options::options_description& tool_options() { return tool_opts_; }
    // Positional arguments, if the tool takes any.
    boost::program_options::positional_options_description& positional() { return positional_; }
    // Returns false when --help or --version was answered (exit 0).
    // Throws UsageError for bad command lines.
    bool parse(int argc, char** argv);
    const CommonOptions& common() const noexcept { return common_; }
    const boost::program_options::variables_map& vm() const noexcept { return vm_; }
    const std::string& tool() const noexcept { return tool_; }
    // Output formats this tool accepts for --format, the default first (tsv, jsonl).
    void set_formats(std::vector<std::string> formats) { formats_ = std::move(formats); }
    // An environment variable the tool reads, for --help (the common ones are listed already).
    void add_environment(std::string name, std::string what) { environment_.emplace_back(std::move(name), std::move(what)); }

private:
    std::string tool_, usage_, summary_;
    boost::program_options::options_description tool_opts_;
    boost::program_options::positional_options_description positional_;
    boost::program_options::variables_map vm_;
    CommonOptions common_;
    std::vector<std::string> formats_{"tsv", "jsonl"};
    std::vector<std::pair<std::string, std::string>> environment_;
    std::string environment_help() const;
};

// The text of --version: version, build configuration, visible GPUs.
std::string version_text(const std::string& tool);

// Throws UsageError unless value <= max. Boost reads "-1" into an unsigned
// option as its largest value; this turns that (and absurd sizes) into a
// usage error instead of a hang or an allocation failure.
void check_at_most(const std::string& option, uint64_t value, uint64_t max);

}  // namespace warpdp
