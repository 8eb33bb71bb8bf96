// gpu-sw's options: their ranges and exclusions, and the settings they give
// (the scoring, BLAST's statistics, the search options).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "options_test_support.hpp"
#include "tools/common/cli.hpp"
#include "tools/sw/sw_options.hpp"

using namespace warpdp;

namespace {
// gpu-sw's settings for `args` (the two files first, without the program name).
SwSettings settings(std::vector<std::string> args) {
    args.insert(args.begin(), {"q.fa", "db.fa"});
    return test::options_settings<SwArgs>("gpu-sw", std::move(args), add_sw_options, check_sw_options);
}
std::string refusal(std::vector<std::string> args) { return test::usage_refusal([&] { (void)settings(args); }); }
}  // namespace

TEST_CASE("--gap-open and --gap-extend: each 0 to 1000, and a one-residue gap costs 1 to 1000") {
    auto gap_refusal = [](int64_t open, int64_t extend) -> std::string {
        SwArgs a;
        a.gap_open = open;
        a.gap_extend = extend;
        return test::usage_refusal([&] { check_sw_args(a, SwFormat::tsv); });
    };
    CHECK(gap_refusal(11, 1).empty());
    CHECK(gap_refusal(0, 1).empty());     // linear gaps
    CHECK(gap_refusal(1, 0).empty());     // a cost per gap, whatever its length
    CHECK(gap_refusal(0, 1000).empty());
    CHECK(gap_refusal(1000, 0).empty());
    CHECK(gap_refusal(-1, 1) == "--gap-open must be a whole number from 0 to 1000, not -1");
    CHECK(gap_refusal(1001, 0) == "--gap-open must be a whole number from 0 to 1000, not 1001");
    CHECK(gap_refusal(5, -1) == "--gap-extend must be a whole number from 0 to 1000, not -1");
    CHECK(gap_refusal(0, 0) == "--gap-open + --gap-extend (a one-residue gap's cost) must be from 1 to 1000, not 0");
    CHECK(gap_refusal(999, 2) == "--gap-open + --gap-extend (a one-residue gap's cost) must be from 1 to 1000, not 1001");
    // Whatever passes is a scoring the engines take (extend <= first residue).
    for (int64_t open : {0, 1, 500, 999})
        for (int64_t extend : {int64_t{0}, int64_t{1}, 1000 - open})
            if (gap_refusal(open, extend).empty())
                CHECK_NOTHROW(check_sw_scoring(sw_scoring(SwMatrix::builtin("BLOSUM62"),
                                                          SwGapCosts{static_cast<int>(open), static_cast<int>(extend)})));
}

TEST_CASE("the settings: blastp's costs and statistics by default, none with --no-evalue") {
    const SwSettings d = settings({});
    CHECK(d.format == SwFormat::tsv);
    CHECK(d.gaps.open == 11);
    CHECK(d.gaps.extend == 1);
    REQUIRE(d.search.statistics);
    const SwKarlinParams k = choose_sw_statistics(SwMatrix::builtin("BLOSUM62"), SwGapCosts{11, 1});
    CHECK(d.search.statistics->lambda == k.lambda);
    CHECK(d.search.alignments);
    CHECK_FALSE(d.search.max_evalue);

    const SwSettings s = settings({"--no-evalue", "--score-only", "--gap-open", "5", "--max-hits", "7", "--min-score",
                                   "20", "--matrix", "blosum80"});
    CHECK_FALSE(s.search.statistics);
    CHECK_FALSE(s.search.alignments);
    CHECK(s.gaps.open == 5);
    CHECK(s.search.max_hits == 7);
    CHECK(s.search.min_score == 20);
    CHECK(s.matrix.name() == SwMatrix::builtin("BLOSUM80").name());
    CHECK(settings({"--evalue", "0.5"}).search.max_evalue == 0.5);
}

TEST_CASE("the options are checked before the matrix, the matrix before BLAST's statistics") {
    CHECK(refusal({"--evalue", "1", "--no-evalue"}) == "--evalue and --no-evalue exclude each other");
    CHECK(refusal({"--format", "m8", "--score-only"}) == "--format m8 needs alignments: not with --score-only");
    // A cost BLAST has no statistics for is refused unless --no-evalue.
    CHECK_FALSE(refusal({"--gap-open", "5"}).empty());
    CHECK(refusal({"--gap-open", "5", "--no-evalue"}).empty());
    // An unknown matrix name is reported even when the statistics would fail too.
    CHECK_THROWS_AS(settings({"--matrix", "no-such-matrix", "--gap-open", "5"}), InputError);
    CHECK(refusal({"-o", "db.fa"}).find("--db") != std::string::npos);
}

