// Helpers for the tests of a tool's own options (tools/<family>/*_options):
// the settings a command line gives, and the usage error it meets.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "core/base/errors.hpp"
#include "tools/common/cli.hpp"

namespace warpdp::test {

// What check(cli, a) gives once add(cli, a) has declared a tool's options
// and the Cli has parsed `args` (without the program's name).
template <class Args, class Add, class Check>
auto options_settings(const std::string& tool, std::vector<std::string> args, Add add, Check check) {
    Cli cli(tool, "usage", "summary");
    Args a;
    add(cli, a);
    args.insert(args.begin(), tool);
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    REQUIRE(cli.parse(static_cast<int>(argv.size()), argv.data()));
    return check(cli, a);
}

// The message of the UsageError f() throws; "" when it throws none.
template <class F>
std::string usage_refusal(F&& f) {
    try {
        std::forward<F>(f)();
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace warpdp::test
