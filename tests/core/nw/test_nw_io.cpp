// gpu-nw-dist's input rules (AmpliconNoise's, verified on Debian's binaries),
// row slices and tiles (the output formats: tests/tools/nw/test_nw_matrix_writer.cpp).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/errors.hpp"
#include "core/nw/nw_metric.hpp"
#include "core/nw/nw_reads.hpp"
#include "core/nw/nw_rows.hpp"
#include "test_support.hpp"

using namespace warpdp;
using warpdp::test::TempDir;
using warpdp::test::uniform;

namespace {
struct Cut {
    uint64_t line;
    std::string record;
    char c;
};
NwReads read_text(const TempDir& dir, const std::string& text, NwMetric metric, bool strict = false,
                  std::vector<Cut>* cuts = nullptr) {
    NwReadOptions o;
    o.metric = metric;
    o.strict = strict;
    const auto path = dir.write("r.fa", text);
    return read_nw_reads(path.string(), o, [&](uint64_t l, const std::string& r, char c) {
        if (cuts) cuts->push_back({l, r, c});
    });
}
}  // namespace

TEST_CASE("NDist reading: both cases kept upper-cased, N R Y U '-' kept, a foreign letter cuts the line") {
    TempDir dir;
    std::vector<Cut> cuts;
    const auto r = read_text(dir, ">a x y\nacgtNRYU-\nACKGT\nTT\n>b\tc\n\n>c\n", NwMetric::ndist, false, &cuts);
    REQUIRE(r.size() == 3);
    CHECK(r.ids[0] == "a");
    CHECK(r.read(0) == "ACGTNRYU-ACTT");
    CHECK(r.ids[1] == "b\tc");  // ids end at a space or newline only
    CHECK(r.read(1).empty());
    CHECK(r.read(2).empty());
    REQUIRE(cuts.size() == 1);
    CHECK(cuts[0].line == 3);
    CHECK(cuts[0].record == "a");
    CHECK(cuts[0].c == 'K');
}

TEST_CASE("SeqDist reading keeps upper-case ACGT only") {
    TempDir dir;
    const auto r = read_text(dir, ">a\nACGTNACGT\n>b\nacgt\n", NwMetric::seqdist);
    CHECK(r.read(0) == "ACGT");
    CHECK(r.read(1).empty());
}

TEST_CASE("CR line ends and trailing blanks end a line silently") {
    TempDir dir;
    std::vector<Cut> cuts;
    const auto r = read_text(dir, ">a\r\nAC\r\nGT \n", NwMetric::ndist, false, &cuts);
    CHECK(r.ids[0] == "a\r");  // as NDist keeps it
    CHECK(r.read(0) == "ACGT");
    CHECK(cuts.empty());
}

TEST_CASE("a CR with text after it on its line (old Mac line ends) is an InputError naming file and line") {
    TempDir dir;
    for (const bool strict : {false, true}) {
        for (const auto& [text, line] : std::vector<std::pair<std::string, uint64_t>>{
                 {">s1\rACGUACGU\r>s2\rACGUACGA\r", 1},  // the whole file one line
                 {">s1\nACGU\r>s2\rACGA\r", 2},            // only the lines after the first
                 {">s1\nACGU\nAC\r \tGU\n", 3}}) {        // blanks then more text
            CAPTURE(text);
            try {
                read_text(dir, text, NwMetric::ndist, strict);
                FAIL("accepted");
            } catch (const InputError& e) {
                CHECK(e.file().ends_with("r.fa"));
                CHECK(e.line() == line);
                CHECK(e.message().find("carriage return") != std::string::npos);
            }
        }
    }
}

TEST_CASE("a line longer than fgets' 65,535 bytes continues as a new piece, which may start a record") {
    TempDir dir;
    const std::string text = ">a\n" + std::string(65534, 'A') + "K>xx" + std::string(10, 'C') + "\n>b\nACGT\n";
    const auto r = read_text(dir, text, NwMetric::ndist);
    REQUIRE(r.size() == 3);
    CHECK(r.length(0) == 65534);
    CHECK(r.ids[1] == "xxCCCCCCCCCC");
    CHECK(r.read(2) == "ACGT");
}

TEST_CASE("bad input is an InputError naming file and line") {
    TempDir dir;
    CHECK_THROWS_AS(read_text(dir, "", NwMetric::ndist), InputError);
    CHECK_THROWS_AS(read_text(dir, "\n>a\nAC\n", NwMetric::ndist), InputError);
    try {
        read_text(dir, ">a\nACGT\nACKT\n", NwMetric::ndist, true);
        FAIL("strict mode accepted K");
    } catch (const InputError& e) {
        CHECK(e.line() == 3);
        CHECK(e.message().find("'K'") != std::string::npos);
    }
}

TEST_CASE("row ranges and tiles") {
    CHECK(pairs_in({0, 5}) == 10);
    CHECK(pairs_in({2, 5}) == 9);
    CHECK(pairs_in({3, 3}) == 0);
    CHECK(parse_rows("2:5", 10).begin == 2);
    CHECK(parse_rows(":", 10).end == 10);
    CHECK_THROWS_AS(parse_rows("5:2", 10), UsageError);
    CHECK_THROWS_AS(parse_rows("0:11", 10), UsageError);
    CHECK_THROWS_AS(parse_rows("x", 10), UsageError);
    CHECK_THROWS_AS(parse_tile("0/3", {1, 2, 3}), UsageError);
    CHECK_THROWS_AS(parse_tile("4/3", {1, 2, 3}), UsageError);
    // Tiles cover every row exactly once, in order, with about equal cells.
    for (int rep = 0; rep < 50; ++rep) {
        std::vector<uint32_t> len(static_cast<size_t>(uniform(1, 300)));
        for (auto& l : len) l = static_cast<uint32_t>(uniform(0, 3) == 0 ? 0 : uniform(1, 500));
        const uint64_t tiles = static_cast<uint64_t>(uniform(1, 12));
        uint64_t next = 0, total = cells_in({0, len.size()}, len), biggest_row = 0, prefix = 0;
        for (auto l : len) biggest_row = std::max<uint64_t>(biggest_row, prefix * l), prefix += l;
        for (uint64_t k = 1; k <= tiles; ++k) {
            const RowRange t = tile_rows(k, tiles, len);
            CHECK(t.begin == next);
            CHECK(cells_in(t, len) <= total / tiles + biggest_row + 1);
            next = t.end;
        }
        CHECK(next == len.size());
    }
}

TEST_CASE("a SeqDist lookup table: each cost is the number strtod reads, as SeqDist takes it") {
    const SeqDistTable t = parse_seqdist_table("1e400,-1e400,1e-310,inf\n-0,0x10,  7, 1.5\r\n1,2,3,4\n5,6,7,8", "t");
    CHECK(t.at(0, 0) == std::numeric_limits<double>::infinity());
    CHECK(t.at(0, 1) == -std::numeric_limits<double>::infinity());
    CHECK(t.at(0, 2) == 1e-310);  // subnormal, not refused as out of range
    CHECK(std::signbit(t.at(1, 0)));
    CHECK(t.at(1, 1) == 16);
    CHECK(t.at(1, 2) == 7);
    CHECK(t.at(3, 3) == 8);
    CHECK_THROWS_WITH_AS(parse_seqdist_table("1,2,3,4\n1,2,3,4\n1,2,3,4,5\n1,2,3,4\n", "t"),
                         "t:3: expected 4 comma-separated costs", InputError);
    CHECK_THROWS_WITH_AS(parse_seqdist_table("1,2,3,4\n1,,3,4\n", "t"), "t:2: not a number: \"\"", InputError);
    CHECK_THROWS_WITH_AS(parse_seqdist_table("1,2,3,4 x\n", "t"), "t:1: not a number: \"4 x\"", InputError);
}

