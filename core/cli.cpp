// Shared command-line parsing and device resolution.
#include "core/cli.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string_view>
#include <thread>

#include <unistd.h>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "warpdp_build_config.hpp"

namespace po = boost::program_options;

namespace warpdp {

namespace {
constexpr uint64_t kMaxThreads = 4096;

// The indices of "cuda:LIST" (spec with its "cuda:" prefix), in order; on
// the first item that is not a GPU index, `bad` is that item.
struct GpuList {
    std::vector<int> indices;
    std::optional<std::string> bad;
};
GpuList parse_gpu_list(std::string_view spec) {
    GpuList g;
    std::string_view list = spec.substr(5);
    while (!list.empty()) {
        const auto comma = list.find(',');
        const auto item = list.substr(0, comma);
        int idx = -1;
        const auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), idx);
        if (ec != std::errc() || p != item.data() + item.size() || idx < 0) {
            g.bad = std::string(item);
            return g;
        }
        g.indices.push_back(idx);
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return g;
}
}  // namespace

std::string DeviceChoice::describe() const {
    if (!cuda) return "cpu";
    std::string s = "cuda:";
    for (size_t i = 0; i < gpus.size(); ++i) s += (i ? "," : "") + std::to_string(gpus[i]);
    return s;
}

DeviceChoice resolve_device(const std::string& spec) {
    if (spec == "cpu") return {};
    if (spec == "auto") {
        if (!built_with_cuda()) return {};
        const auto gpus = list_gpus();
        if (gpus.empty()) return {};
        DeviceChoice d{true, {}};
        for (const auto& g : gpus) d.gpus.push_back(g.index);
        return d;
    }
    if (spec != "cuda" && spec.rfind("cuda:", 0) != 0)
        throw UsageError("unknown --device '" + spec + "' (expected auto, cpu, cuda or cuda:0,1,...)");
    if (!built_with_cuda()) throw ResourceError("--device " + spec + ": built without CUDA support");
    const auto gpus = list_gpus();
    if (gpus.empty()) throw ResourceError("--device " + spec + ": no CUDA GPU is visible");
    DeviceChoice d{true, {}};
    if (spec == "cuda") {
        for (const auto& g : gpus) d.gpus.push_back(g.index);
        return d;
    }
    const GpuList asked = parse_gpu_list(spec);
    if (asked.bad) throw UsageError("--device " + spec + ": '" + *asked.bad + "' is not a GPU index");
    for (const int idx : asked.indices) {
        if (idx >= static_cast<int>(gpus.size()))
            throw ResourceError("--device " + spec + ": GPU " + std::to_string(idx) + " is not visible (" +
                                std::to_string(gpus.size()) + " visible)");
        d.gpus.push_back(idx);
    }
    if (d.gpus.empty()) throw UsageError("--device " + spec + ": no GPU index given");
    return d;
}

void hide_unused_gpus(const std::string& device_spec, double one_gpu_seconds) {
    size_t keep = 0;
    if (device_spec == "auto") {
        if (!(one_gpu_seconds < kAllGpusFromSeconds)) return;
        keep = 1;
    } else if (device_spec.rfind("cuda:", 0) == 0) {
        const GpuList asked = parse_gpu_list(device_spec);
        if (asked.bad || asked.indices.empty()) return;  // resolve_device says why
        for (const int idx : asked.indices) keep = std::max(keep, static_cast<size_t>(idx) + 1);
    } else {
        return;
    }
    std::vector<std::string> visible;
    if (const char* cvd = std::getenv("CUDA_VISIBLE_DEVICES")) {
        std::string_view rest(cvd);
        while (!rest.empty()) {
            const auto comma = rest.find(',');
            visible.emplace_back(rest.substr(0, comma));
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
        if (visible.size() <= keep) return;
    } else {
        for (size_t i = 0; i < keep; ++i) visible.push_back(std::to_string(i));
    }
    std::string value;
    for (size_t i = 0; i < keep; ++i) value += (i ? "," : "") + visible[i];
    setenv("CUDA_VISIBLE_DEVICES", value.c_str(), 1);
}

double msv_seconds_on_one_gpu(const std::string& db_path, uint64_t sum_m) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    std::error_code ec;
    if (db_path == "-" || !std::filesystem::is_regular_file(db_path, ec)) return kInf;
    const auto bytes = std::filesystem::file_size(db_path, ec);
    if (ec) return kInf;
    unsigned char magic[2] = {0, 0};
    std::ifstream(db_path, std::ios::binary).read(reinterpret_cast<char*>(magic), 2);
    const double residues = static_cast<double>(bytes) * (magic[0] == 0x1f && magic[1] == 0x8b ? 4.0 : 1.0);
    return residues * static_cast<double>(sum_m) / 1e13;
}

std::optional<double> parse_hmmer_real(const std::string& text) {
    const char* s = text.c_str();
    char* end = nullptr;
    const double v = std::strtod(s, &end);
    if (end == s) return std::nullopt;
    while (*end != '\0' && std::isspace(static_cast<unsigned char>(*end))) ++end;
    if (*end != '\0') return std::nullopt;
    return v;
}

void validate(boost::any& out, const std::vector<std::string>& values, HmmerReal*, int) {
    po::validators::check_first_occurrence(out);
    const std::string& text = po::validators::get_single_string(values);
    const auto v = parse_hmmer_real(text);
    if (!v) throw po::invalid_option_value(text);
    out = HmmerReal{*v};
}

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

Cli::Cli(std::string tool, std::string usage, std::string summary)
    : tool_(std::move(tool)), usage_(std::move(usage)), summary_(std::move(summary)),
      tool_opts_(tool_ + " options") {}

bool Cli::parse(int argc, char** argv) {
    po::options_description common("Common options");
    common.add_options()
        ("device", po::value<std::string>(&common_.device)->default_value("auto"),
         "auto (CUDA if a GPU is visible, else CPU), cpu, cuda, or cuda:0,1,...")
        ("threads", po::value<unsigned>(&common_.threads)->default_value(0), "CPU threads (0 = all cores)")
        ("format", po::value<std::string>(&common_.format)->default_value(formats_.front()),
         "output format (see the tool's description)")
        (",o", po::value<std::string>(&common_.output), "write results to FILE (atomically) instead of stdout")
        ("quiet,q", po::bool_switch(&common_.quiet), "no warnings or run summary on stderr")
        ("progress", "show progress and throughput on stderr (default: only when stderr is a terminal)")
        ("no-progress", "never show progress")
        ("help,h", "print this help and exit")
        ("version", "print version, build configuration and visible GPUs, and exit");
    po::options_description all;
    all.add(tool_opts_).add(common);
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(positional_).run(), vm_);
        if (vm_.count("help")) {
            std::cout << "Usage: " << usage_ << "\n" << summary_ << "\n\n" << all << "\n";
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
    if (common_.threads == 0) common_.threads = std::max(1u, std::thread::hardware_concurrency());
    if (vm_.count("progress") && vm_.count("no-progress"))
        throw UsageError("--progress and --no-progress are mutually exclusive");
    common_.progress = vm_.count("progress") ? true : vm_.count("no-progress") ? false : ::isatty(2) == 1;
    if (common_.quiet) common_.progress = false;
    if (std::find(formats_.begin(), formats_.end(), common_.format) == formats_.end()) {
        std::string list;
        for (const auto& f : formats_) list += (list.empty() ? "" : ", ") + f;
        throw UsageError("unknown --format '" + common_.format + "' (expected " + list + ")");
    }
    return true;
}

}  // namespace warpdp
