// Stitching the outputs of hmmsearch runs of one model each: the first
// run's header and footer, naming the user's files, every run's results.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/io/output_file.hpp"
#include "test_support.hpp"
#include "tools/hmmer/hmmsearch_stitch.hpp"

using namespace warpdp;

namespace {
std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string main_output(const std::string& query) {
    return "# hmmsearch :: search profile(s) against a sequence database\n"
           "# query HMM file:                  /tmp/x/model.1.hmm\n"
           "# target sequence database:        /tmp/x/targets.fa\n"
           "# output directed to file:         /tmp/x/model.1.out\n"
           "# per-seq hits tabular output:     /tmp/x/model.1.tbl\n"
           "# - - -\n\n"
           "Query:       " + query + "  [M=86]\nhits of " + query + "\n\n//\n[ok]\n";
}

std::string table(const std::string& rows) {
    return "#                                                               --- full sequence ----\n"
           "# target name        accession  query name           accession\n"
           "#------------------- ----------\n" + rows +
           "#\n# Program:         hmmsearch\n# Query file:      /tmp/x/model.1.hmm\n"
           "# Target file:     /tmp/x/targets.fa\n# [ok]\n";
}
}  // namespace

TEST_CASE("the main output: the first header with the user's names, every query block, one [ok]") {
    test::TempDir dir;
    const auto a = dir.write("a.out", main_output("one")).string();
    const auto b = dir.write("b.out", main_output("two")).string();
    const auto out = (dir.path() / "o.out").string();
    {
        OutputFile f(out);
        stitch_main_output({a, b}, {"m\\n.hmm", "db.fa", "", "t.tbl", ""}, f);
        f.commit();
    }
    CHECK(slurp(out) == "# hmmsearch :: search profile(s) against a sequence database\n"
                        "# query HMM file:                  m\\n.hmm\n"
                        "# target sequence database:        db.fa\n"
                        "# per-seq hits tabular output:     t.tbl\n"
                        "# - - -\n\n"
                        "Query:       one  [M=86]\nhits of one\n\n//\n"
                        "Query:       two  [M=86]\nhits of two\n\n//\n[ok]\n");
}

TEST_CASE("a table: three header lines, every run's rows (a row may start with '#'), the first footer") {
    test::TempDir dir;
    const auto a = dir.write("a.tbl", table("r1 - one\n#r2 - one\n")).string();
    const auto b = dir.write("b.tbl", table("r3 - two\n")).string();
    const auto c = dir.write("c.tbl", table("")).string();
    const auto out = (dir.path() / "t.tbl").string();
    {
        OutputFile f(out);
        stitch_table({a, b, c}, {"m.hmm", "db.fa", "", "t.tbl", ""}, f);
        f.commit();
    }
    const std::string want = table("r1 - one\n#r2 - one\nr3 - two\n");
    CHECK(slurp(out) == want.substr(0, want.find("# Query file:")) +
                            "# Query file:      m.hmm\n# Target file:     db.fa\n# [ok]\n");
}

TEST_CASE("delivery: all outputs or none") {
    test::TempDir dir;
    const auto a = dir.write("a.out", main_output("one")).string();
    const auto t = dir.write("a.tbl", table("r1\n")).string();
    const auto o = (dir.path() / "o.out").string();
    const auto bad = (dir.path() / "nodir" / "d.tbl").string();
    const StitchedNames names{"m.hmm", "db.fa", o, (dir.path() / "t.tbl").string(), bad};
    CHECK_THROWS_WITH_AS(deliver_stitched_outputs({{a}, {t}, {t}}, names),
                         ("cannot write " + bad + ": cannot create output file: No such file or directory").c_str(),
                         ResourceError);
    CHECK_FALSE(std::filesystem::exists(o));
    CHECK_FALSE(std::filesystem::exists(dir.path() / "t.tbl"));
    CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), {}) == 2);  // (no temporary left)
    deliver_stitched_outputs({{a}, {t}, {}}, {"m.hmm", "db.fa", o, (dir.path() / "t.tbl").string(), ""});
    CHECK(slurp(dir.path() / "t.tbl").find("# Query file:      m.hmm\n") != std::string::npos);
    CHECK(slurp(o).find("# output directed to file:         " + o + "\n") != std::string::npos);
}
