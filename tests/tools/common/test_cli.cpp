// Common command line: device resolution, option checks, help/version.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "kernels/common/gpus.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/device_choice.hpp"
#include "tools/hmmer/hmmer_costs.hpp"
#include "tools/hmmer/hmmer_real.hpp"

using namespace warpdp;

namespace {
// Parses `args` (without the program name) with a fresh Cli.
bool parse(Cli& cli, std::vector<std::string> args) {
    args.insert(args.begin(), "tool");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    return cli.parse(static_cast<int>(argv.size()), argv.data());
}
}  // namespace

TEST_CASE("--device: cpu always works, auto falls back to the CPU without a GPU") {
    CHECK_FALSE(resolve_device("cpu").cuda);
    const auto a = resolve_device("auto");
    CHECK(a.cuda == (built_with_cuda() && !list_gpus().empty()));
    CHECK(a.describe() == (a.cuda ? a.describe() : std::string("cpu")));
}

TEST_CASE("--device: malformed values are usage errors, missing GPUs resource errors") {
    CHECK_THROWS_AS(resolve_device("gpu"), UsageError);
    CHECK_THROWS_AS(resolve_device(""), UsageError);
    if (list_gpus().empty()) {
        CHECK_THROWS_AS(resolve_device("cuda"), ResourceError);
        CHECK_THROWS_AS(resolve_device("cuda:0"), ResourceError);
        if (!built_with_cuda()) {
            try {
                (void)resolve_device("cuda");
            } catch (const ResourceError& e) {
                CHECK(std::string(e.what()).find("built without CUDA support") != std::string::npos);
            }
        }
    } else {
        CHECK_THROWS_AS(resolve_device("cuda:x"), UsageError);
        CHECK_THROWS_AS(resolve_device("cuda:999"), ResourceError);
    }
}

namespace {
// CUDA_VISIBLE_DEVICES as it was, restored when the test ends (other tests
// of this process resolve devices).
struct VisibleDevicesGuard {
    std::optional<std::string> saved;
    VisibleDevicesGuard() {
        if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES")) saved = v;
    }
    ~VisibleDevicesGuard() {
        if (saved) setenv("CUDA_VISIBLE_DEVICES", saved->c_str(), 1);
        else unsetenv("CUDA_VISIBLE_DEVICES");
    }
};

// CUDA_VISIBLE_DEVICES after hide_unused_gpus(spec, seconds), starting from
// `before` (nullopt: unset); nullopt when it is left unset.
std::optional<std::string> visible_after(std::optional<std::string> before, const std::string& spec,
                                         double seconds) {
    if (before) setenv("CUDA_VISIBLE_DEVICES", before->c_str(), 1);
    else unsetenv("CUDA_VISIBLE_DEVICES");
    hide_unused_gpus(spec, seconds);
    const char* v = std::getenv("CUDA_VISIBLE_DEVICES");
    return v ? std::optional<std::string>(v) : std::nullopt;
}
}  // namespace

TEST_CASE("hide_unused_gpus keeps the first GPUs a run uses, numbered as the user gave them") {
    const VisibleDevicesGuard guard;
    const auto unset = std::optional<std::string>{};
    SUBCASE("an explicit list keeps every GPU up to its highest index") {
        CHECK(visible_after(unset, "cuda:0", 0) == "0");
        CHECK(visible_after(unset, "cuda:2,0", 0) == "0,1,2");
        CHECK(visible_after(std::string("3,5,7"), "cuda:1", 0) == "3,5");
        CHECK(visible_after(std::string("GPU-a,GPU-b"), "cuda:0", 99) == "GPU-a");
    }
    SUBCASE("a list that asks for more than is visible is left for resolve_device to refuse") {
        CHECK(visible_after(std::string("3,5"), "cuda:1", 0) == "3,5");
        CHECK(visible_after(std::string("3,5"), "cuda:4", 0) == "3,5");
        CHECK(visible_after(std::string(""), "cuda:0", 0) == "");
    }
    SUBCASE("auto: the first GPU for a short run, every GPU for a long one") {
        CHECK(visible_after(unset, "auto", kAllGpusFromSeconds / 2) == "0");
        CHECK(visible_after(std::string("4,6"), "auto", 0) == "4");
        CHECK(visible_after(unset, "auto", kAllGpusFromSeconds) == unset);
        CHECK(visible_after(std::string("4,6"), "auto", INFINITY) == "4,6");
    }
    SUBCASE("cpu, cuda (all) and malformed values change nothing") {
        for (const char* spec : {"cpu", "cuda", "cuda:", "cuda:x", "cuda:-1", "gpu", ""}) {
            CAPTURE(spec);
            CHECK(visible_after(unset, spec, 0) == unset);
            CHECK(visible_after(std::string("1,2"), spec, 0) == "1,2");
        }
    }
}

TEST_CASE("msv_seconds_on_one_gpu, msv_filters_seconds_on_cpu: file bytes as residues, gzip four times, unknown sizes infinite") {
    const auto dir = std::filesystem::temp_directory_path();
    const auto plain = dir / "warpdp_test_cli_plain.fa";
    const auto gz = dir / "warpdp_test_cli_db.fa.gz";
    std::ofstream(plain, std::ios::binary) << std::string(1000, 'A');
    std::ofstream(gz, std::ios::binary) << std::string("\x1f\x8b") + std::string(998, 'x');
    CHECK(msv_seconds_on_one_gpu(plain.string(), 100) == doctest::Approx(1000.0 * 100 / 1e13));
    CHECK(msv_seconds_on_one_gpu(gz.string(), 100) == doctest::Approx(4000.0 * 100 / 1e13));
    CHECK(std::isinf(msv_seconds_on_one_gpu("-", 100)));
    CHECK(std::isinf(msv_seconds_on_one_gpu((dir / "warpdp_test_cli_missing.fa").string(), 100)));
    // The CPU filters' estimate reads the same sizes, shared by the threads.
    CHECK(msv_filters_seconds_on_cpu(plain.string(), 100, 4) == doctest::Approx(1000.0 * 100 / (1.7e10 * 4)));
    CHECK(msv_filters_seconds_on_cpu(gz.string(), 100, 0) == doctest::Approx(4000.0 * 100 / 1.7e10));
    CHECK(std::isinf(msv_filters_seconds_on_cpu("-", 100, 4)));
    std::filesystem::remove(plain);
    std::filesystem::remove(gz);
}

TEST_CASE("common options parse, resolve and reject") {
    {
        Cli cli("tool", "tool [options]", "test");
        CHECK(parse(cli, {"--threads", "0", "--format", "jsonl", "-o", "x.tsv", "--no-progress"}));
        CHECK(cli.common().threads >= 1);
        CHECK(cli.common().format == "jsonl");
        CHECK(cli.common().output == "x.tsv");
        CHECK_FALSE(cli.common().progress);
    }
    {
        Cli cli("tool", "tool [options]", "test");
        CHECK(parse(cli, {"--quiet", "--progress"}));
        CHECK_FALSE(cli.common().progress);  // --quiet wins
    }
    Cli bad_format("tool", "tool", "test");
    CHECK_THROWS_AS(parse(bad_format, {"--format", "xml"}), UsageError);
    Cli unknown("tool", "tool", "test");
    CHECK_THROWS_AS(parse(unknown, {"--frobnicate"}), UsageError);
    Cli both("tool", "tool", "test");
    CHECK_THROWS_AS(parse(both, {"--progress", "--no-progress"}), UsageError);
    Cli neg("tool", "tool", "test");
    CHECK_THROWS_AS(parse(neg, {"--threads", "many"}), UsageError);
}

TEST_CASE("thresholds are read as hmmsearch reads them: what strtod takes, blanks around it allowed") {
    const auto read = [](const char* text) { return parse_hmmer_real(text); };
    CHECK(read("0.05") == 0.05);
    CHECK(read(" 0.05") == 0.05);
    CHECK(read("0.05 \t\n") == 0.05);
    CHECK(read("0x1p-6") == 1.0 / 64);
    CHECK(read("-0x1p-3") == -0.125);
    CHECK(read("1e400") == std::numeric_limits<double>::infinity());
    CHECK(read("1e-400") == 0.0);
    CHECK(read("+.5") == 0.5);
    CHECK(std::isnan(*read("nan(123)")));
    CHECK(read("Infinity") == std::numeric_limits<double>::infinity());
    for (const char* bad : {"", " ", ".", "-", "1e", "0x", "0.05x", "0.05 x", "1,5", "5e-2e"}) {
        CAPTURE(bad);
        CHECK_FALSE(read(bad));
    }
    // Through boost: the option takes the value, or refuses it as a bad value.
    Cli cli("tool", "usage", "what");
    HmmerReal f{0.02};
    cli.tool_options().add_options()("F1", boost::program_options::value<HmmerReal>(&f)->default_value(f, "0.02"), "F1");
    CHECK(parse(cli, {"--F1", " 0x1p-2 "}));
    CHECK(f.value == 0.25);
    Cli again("tool", "usage", "what");
    again.tool_options().add_options()("F1", boost::program_options::value<HmmerReal>(&f), "F1");
    CHECK_THROWS_WITH_AS(parse(again, {"--F1", "1e"}), doctest::Contains("--F1"), UsageError);
}

TEST_CASE("--version names the build configuration") {
    const auto v = version_text("gpu-msv");
    CHECK(v.find("gpu-msv (warpdp)") == 0);
    CHECK(v.find(built_with_cuda() ? "CUDA on" : "CUDA off") != std::string::npos);
    CHECK(v.find("visible GPUs: ") != std::string::npos);
}
