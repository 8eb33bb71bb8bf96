// Common command line: device resolution, option checks, help/version.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/cli.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"

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

TEST_CASE("--version names the build configuration") {
    const auto v = version_text("gpu-msv");
    CHECK(v.find("gpu-msv (warpdp)") == 0);
    CHECK(v.find(built_with_cuda() ? "CUDA on" : "CUDA off") != std::string::npos);
    CHECK(v.find("visible GPUs: ") != std::string::npos);
}
