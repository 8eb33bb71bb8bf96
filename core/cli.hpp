// The command-line conventions every warpdp tool shares (Boost.Program_options):
//   --device auto|cpu|cuda|cuda:0,1   --threads N   --format tsv|jsonl   -o FILE
//   --quiet   --progress/--no-progress   --help   --version
// A tool adds its own options to tool_options() before parse().
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpdp {

struct CommonOptions {
    std::string device = "auto";
    unsigned threads = 0;  // resolved: never 0 after parse()
    std::string format = "tsv";
    std::string output;    // empty: stdout
    bool quiet = false;
    bool progress = false;  // resolved: on by default only when stderr is a terminal
};

// Which engine family runs, and on which GPUs.
struct DeviceChoice {
    bool cuda = false;
    std::vector<int> gpus;  // non-empty iff cuda
    std::string describe() const;
};

// Resolves a --device value against the GPUs this binary can see. "auto"
// picks CUDA when a GPU is visible, else the CPU. Throws UsageError for a
// malformed value and ResourceError when CUDA is asked for but unavailable.
DeviceChoice resolve_device(const std::string& spec);

// Hides, before the CUDA driver starts, the GPUs a run will not use: the
// driver starts slower with every GPU of the host visible (two H200s: engines
// ready at 0.46-0.54 s, against 0.25-0.28 s with one). Sets
// CUDA_VISIBLE_DEVICES to the first entries of the visible list, so that
// device numbers stay as the user gave them: for "cuda:LIST" up to the
// highest index asked; for "auto" only the first GPU when the run's GPU work
// is below kAllGpusFromSeconds on one GPU (a second GPU then costs more in
// its start and per-chunk calls than it saves: docs/benchmarks.md). Any other
// value, or nothing to hide, leaves the environment alone. Call it before
// any thread starts (setenv) and before any CUDA call.
inline constexpr double kAllGpusFromSeconds = 1.0;
void hide_unused_gpus(const std::string& device_spec, double one_gpu_seconds);

// Rough seconds of MSV-filter kernel on one H200 for a database file
// searched with models of `sum_m` nodes in all (~10^13 cells a second; file
// bytes as residues, a gzip file counted four times its size). Infinite when
// the size is unknown (a pipe, standard input). Only for hide_unused_gpus.
double msv_seconds_on_one_gpu(const std::string& db_path, uint64_t sum_m);

// Whether the CPU engines finish `msv_cells` cells of MSV filtering in about
// 0.1 s on `threads` threads (~40 GCUPS a core, measured on the H200 host).
// With --device auto such a chunk, arriving while the CUDA driver is still
// starting (0.1-0.5 s there), is done on the CPU instead of waited on: the
// results are the same either way.
inline bool cpu_finishes_quickly(uint64_t msv_cells, unsigned threads) {
    return msv_cells <= uint64_t{4'000'000'000} * threads;
}

// Database residues the filters hold at once (one chunk), for models of
// `sum_m` nodes in all. A short job wants small chunks, so that reading,
// filtering and writing overlap sooner and the last chunk's work is short
// (Pkinase on 409 M residues: 0.52-0.59 s with 2^27, 0.48 s with 2^26); with
// many nodes per residue larger chunks lose nothing there and save per-chunk
// costs (nine models: 0.94-1.05 s with 2^27, 1.05-1.08 s with 2^26). Measured
// with gpu-viterbi --msv on the H200 host.
inline uint64_t chunk_residues_for(uint64_t sum_m) {
    return sum_m <= 1024 ? uint64_t{1} << 26 : uint64_t{1} << 27;
}

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

private:
    void print_version() const;
    std::string tool_, usage_, summary_;
    boost::program_options::options_description tool_opts_;
    boost::program_options::positional_options_description positional_;
    boost::program_options::variables_map vm_;
    CommonOptions common_;
    std::vector<std::string> formats_{"tsv", "jsonl"};
};

// A real-valued option as hmmsearch takes it (Easel's option parser): the
// number strtod reads, with blanks around it; hex floats, inf and nan are
// numbers, and so are values out of range, as strtod returns them (1e400 is
// inf, 1e-400 is 0). "1e", "0.05x" or "" are not. Declared with
// po::value<HmmerReal>; a refusal reads as boost's own for a bad value.
struct HmmerReal {
    double value = 0;
};
std::optional<double> parse_hmmer_real(const std::string& text);
void validate(boost::any& out, const std::vector<std::string>& values, HmmerReal*, int);

// The text of --version: version, build configuration, visible GPUs.
std::string version_text(const std::string& tool);

// Throws UsageError unless value <= max. Boost reads "-1" into an unsigned
// option as its largest value; this turns that (and absurd sizes) into a
// usage error instead of a hang or an allocation failure.
void check_at_most(const std::string& option, uint64_t value, uint64_t max);

}  // namespace warpdp
