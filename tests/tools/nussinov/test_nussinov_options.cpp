// gpu-nussinov's options: their ranges and exclusions, the folding
// parameters and format they give, and the warning for letters that never
// pair.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "options_test_support.hpp"
#include "tools/common/cli.hpp"
#include "tools/nussinov/nussinov_options.hpp"
#include "tools/nussinov/nussinov_stage.hpp"

using namespace warpdp;

namespace {
// gpu-nussinov's settings for `args` (the input first, without the program name).
NussinovSettings settings(std::vector<std::string> args) {
    args.insert(args.begin(), "rnas.fa");
    return test::options_settings<NussinovArgs>("gpu-nussinov", std::move(args), add_nussinov_options,
                                                check_nussinov_options);
}
std::string refusal(std::vector<std::string> args) { return test::usage_refusal([&] { (void)settings(args); }); }
}  // namespace

TEST_CASE("the defaults: every pair type weighs 1, G-U allowed, one unpaired base inside a pair, tsv") {
    const NussinovSettings s = settings({});
    const NussinovParams d;
    CHECK(s.params.min_loop == d.min_loop);
    CHECK(s.params.gu);
    CHECK(s.params.w_gc == 1);
    CHECK(s.params.w_au == 1);
    CHECK(s.params.w_gu == 1);
    CHECK(s.format == NussinovFormat::tsv);
}

TEST_CASE("--min-loop, --no-gu, --weights and --format become the parameters") {
    const NussinovSettings s = settings({"--min-loop", "0", "--no-gu", "--weights", "GC=3,AU=2", "--format", "vienna"});
    CHECK(s.params.min_loop == 0);
    CHECK_FALSE(s.params.gu);
    CHECK(s.params.w_gc == 3);
    CHECK(s.params.w_au == 2);
    CHECK(s.params.w_gu == 1);  // not named: kept
    CHECK(s.format == NussinovFormat::vienna);
    CHECK(settings({"--min-loop", "1073741824"}).params.min_loop == 1 << 30);
}

TEST_CASE("refused: --min-loop out of range, --no-structure with vienna, an output on the input") {
    CHECK(refusal({"--min-loop", "-1"}) == "--min-loop must be a whole number from 0 to 2^30, not -1");
    CHECK(refusal({"--min-loop", "1073741825"}) == "--min-loop must be a whole number from 0 to 2^30, not 1073741825");
    CHECK(refusal({"--format", "vienna", "--no-structure"}) ==
          "--no-structure applies to --format tsv and jsonl (vienna prints the structure)");
    CHECK(refusal({"--no-structure"}).empty());
    CHECK_FALSE(refusal({"--weights", "GC=x"}).empty());
    CHECK(refusal({"--stats", "rnas.fa"}).find("--in") != std::string::npos);
}

TEST_CASE("letters that never pair: one warning naming the file, the count and the first record") {
    NussinovTally t;
    CHECK(nussinov_other_letters_warning(t, "in.fa").empty());
    t.other = 1;
    t.first_other = "r1";
    const std::string one = nussinov_other_letters_warning(t, "in.fa");
    CHECK(one.rfind("in.fa: 1 letter other than", 0) == 0);
    CHECK(one.find("r1") != std::string::npos);
    t.other = 2;
    CHECK(nussinov_other_letters_warning(t, "in.fa").rfind("in.fa: 2 letters other than", 0) == 0);
}
