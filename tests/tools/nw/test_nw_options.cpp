// gpu-nw-dist's options: their exclusions, the read, writer and table
// settings they give, and the row range --rows or --tile names.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "options_test_support.hpp"
#include "test_support.hpp"
#include "tools/common/cli.hpp"
#include "tools/nw/nw_options.hpp"
#include "tools/nw/nw_stage.hpp"

using namespace warpdp;

namespace {
// gpu-nw-dist's settings for `args` (the input first, without the program name).
NwSettings settings(std::vector<std::string> args) {
    args.insert(args.begin(), "reads.fa");
    return test::options_settings<NwArgs>("gpu-nw-dist", std::move(args), add_nw_options,
                                          [](const Cli& cli, const NwArgs& a) {
                                              return check_nw_options(cli, a, [](const std::string&) {});
                                          });
}
std::string refusal(std::vector<std::string> args) { return test::usage_refusal([&] { (void)settings(args); }); }
}  // namespace

TEST_CASE("the settings: metric, strictness, length guard and writer options as given") {
    const NwSettings d = settings({});
    CHECK(d.reads.metric == NwMetric::ndist);
    CHECK(d.writer.format == NwFormat::ndist);
    CHECK_FALSE(d.writer.max_dist);
    CHECK(d.table.cost == tran_dat().cost);

    const NwSettings s = settings({"--metric", "seqdist", "--strict", "--max-read-length", "500", "--format", "tsv",
                                   "--max-dist", "0.25"});
    CHECK(s.reads.metric == NwMetric::seqdist);
    CHECK(s.writer.metric == NwMetric::seqdist);
    CHECK(s.reads.strict);
    CHECK(s.reads.max_length == 500);
    CHECK(s.writer.format == NwFormat::tsv);
    CHECK(s.writer.max_dist == 0.25);
}

TEST_CASE("--lookup: SeqDist's table from the file, for --metric seqdist only") {
    const test::TempDir dir;
    const std::filesystem::path file = dir.write("lookup.txt", "0,1,2,3\n1,0,1,2\n2,1,0,1\n3,2,1,0\n");
    const NwSettings s = settings({"--metric", "seqdist", "--lookup", file.string()});
    CHECK(s.table.at(0, 3) == 3.0);
    CHECK(s.table.at(2, 1) == 1.0);
    CHECK(refusal({"--lookup", file.string()}) == "--lookup applies to --metric seqdist only");
}

TEST_CASE("refused before any read: --rows with --tile, a malformed slice, a value out of range") {
    CHECK(refusal({"--rows", "0:2", "--tile", "1/2"}) == "--rows and --tile exclude each other");
    CHECK_FALSE(refusal({"--rows", "2-3"}).empty());
    CHECK_FALSE(refusal({"--tile", "3/2"}).empty());
    CHECK_FALSE(refusal({"--max-read-length", "4294967296"}).empty());
    CHECK(refusal({"--rows", "0:1000000"}).empty());  // bounds wait for the reads
    CHECK(refusal({"-o", "reads.fa"}).find("--in") != std::string::npos);
}

TEST_CASE("the row range: --rows or --tile against the reads, else every row") {
    const std::vector<uint32_t> lengths{10, 10, 10, 10};
    const RowRange all = nw_row_range("", "", lengths);
    CHECK(all.begin == 0);
    CHECK(all.end == 4);
    const RowRange r = nw_row_range("1:3", "", lengths);
    CHECK(r.begin == 1);
    CHECK(r.end == 3);
    CHECK_THROWS_AS(nw_row_range("0:5", "", lengths), UsageError);
    // Tiles cover the rows in order, each row once.
    const RowRange t1 = nw_row_range("", "1/2", lengths), t2 = nw_row_range("", "2/2", lengths);
    CHECK(t1.begin == 0);
    CHECK(t1.end == t2.begin);
    CHECK(t2.end == 4);
}
