// gpu-nw-dist's writer (tools/nw/nw_matrix_writer.hpp): every format's
// layout, printf's "%.8e", and JSON's stand-in for what it cannot hold.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/nw/nw_reads.hpp"
#include "test_support.hpp"
#include "tools/nw/nw_matrix_writer.hpp"

using namespace warpdp;
using warpdp::test::slurp;
using warpdp::test::TempDir;

namespace {
// The whole matrix of `reads` (distances `v`, row-major lower triangle) as
// the writer prints it in format `f`.
std::string render(const TempDir& dir, const NwReads& reads, const std::vector<double>& v, NwFormat f,
                   bool ids = false) {
    const auto path = (dir.path() / "o").string();
    OutputFile out(path);
    NwWriterOptions o;
    o.format = f;
    o.ids = ids;
    NwMatrixWriter w(out, reads, o);
    w.header();
    w.rows(0, reads.size(), v);
    out.commit();
    return slurp(path);
}
}  // namespace

TEST_CASE("%.8e as printf writes it") {
    for (double v : {0.0, 1.0, 0.25, 1.0 / 3, 15.0, 2.57731959e-03, 1e-300, 123456789.0}) {
        char want[64];
        std::snprintf(want, sizeof want, "%.8e", v);
        std::string got;
        append_sci8(got, v);
        CHECK(got == want);
    }
    std::string nan;
    append_sci8(nan, -std::nan(""));
    CHECK(nan == "-nan");
}

TEST_CASE("jsonl: a distance JSON cannot hold as a number is the string tsv prints") {
    TempDir dir;
    NwReads reads;
    for (const char* id : {"a", "b", "c", "d"}) reads.add(id, "A");
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> v{-inf, inf, -std::nan(""), 0.5, std::nan(""), 1e-300};
    std::istringstream tsv(render(dir, reads, v, NwFormat::tsv)), jsonl(render(dir, reads, v, NwFormat::jsonl));
    std::string t, j;
    std::getline(tsv, t);  // header
    size_t rows = 0;
    while (std::getline(tsv, t) && std::getline(jsonl, j)) {
        const auto row = nlohmann::json::parse(j);
        const std::string tsv_text = t.substr(t.rfind('\t') + 1);
        const double d = v[rows++];
        if (std::isfinite(d)) CHECK(row["distance"].get<double>() == std::stod(tsv_text));
        else CHECK(row["distance"].get<std::string>() == tsv_text);
    }
    CHECK(rows == v.size());
    CHECK(render(dir, reads, v, NwFormat::tsv).find("-inf") != std::string::npos);
}

TEST_CASE("formats: ndist text, PHYLIP and binary layouts") {
    TempDir dir;
    NwReads reads;
    reads.add("x", "A");
    reads.add("y", "C");
    reads.add("z", "G");
    const std::vector<double> v{0.5, 0.25, 1.0};  // (1,0), (2,0), (2,1)
    const auto render = [&](NwFormat f, bool ids) { return ::render(dir, reads, v, f, ids); };
    CHECK(render(NwFormat::ndist, false) == "3\n5.00000000e-01\n2.50000000e-01\n1.00000000e+00\n");
    CHECK(render(NwFormat::ndist, true) == "3\nx\ny\nz\n5.00000000e-01\n2.50000000e-01\n1.00000000e+00\n");
    CHECK(render(NwFormat::phylip, false) == "3\nx\ny 5.00000000e-01\nz 2.50000000e-01 1.00000000e+00\n");
    const std::string bin = render(NwFormat::binary, false);
    REQUIRE(bin.size() == 24 + 3 * 8);
    CHECK(bin.substr(0, 8) == std::string("WDPNWD1\0", 8));
    double third;
    std::memcpy(&third, bin.data() + 24 + 16, 8);
    CHECK(third == 1.0);
}
