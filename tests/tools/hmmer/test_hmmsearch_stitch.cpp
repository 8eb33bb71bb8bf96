// Stitching the outputs of hmmsearch runs of one model each: the first
// run's header and footer, naming the user's files, every run's results.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "core/base/errors.hpp"
#include "core/io/output_file.hpp"
#include "test_support.hpp"
#include "tools/hmmer/hmmsearch_stitch.hpp"

using namespace warpdp;

namespace {
using warpdp::test::slurp;

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

TEST_CASE("delivery: a device that fails leaves every other output as it was") {
    test::TempDir dir;
    const auto a = dir.write("a.out", main_output("one")).string();
    const auto t = dir.write("a.tbl", table("r1\n")).string();
    const auto o = dir.write("o.out", "old o\n").string();
    const auto tbl = dir.write("t.tbl", "old t\n").string();
    const StitchedNames names{"m.hmm", "db.fa", o, tbl, "/dev/full"};
    CHECK_THROWS_WITH_AS(deliver_stitched_outputs({{a}, {t}, {t}}, names), doctest::Contains("cannot write /dev/full"),
                         ResourceError);
    CHECK(slurp(o) == "old o\n");
    CHECK(slurp(tbl) == "old t\n");
    CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), {}) == 4);  // (no temporary left)
}

TEST_CASE("one run's output copied, its scratch paths in '#' lines made the user's names") {
    test::TempDir dir;
    const auto run = dir.write("r.out",
                               "# query HMM file:                  /s/query.hmm\n"
                               "# output directed to file:         /s/whole.main\n"
                               "# MSA of all hits saved to file:   /s/whole.4\n"
                               "Query:       fn3  [M=86]\n"
                               "  /s/whole.4 in a line that is not a comment stays\n"
                               "# Alignment of 4 hits satisfying inclusion thresholds saved to: /s/whole.4\n"
                               "# Option settings: hmmsearch -o /s/whole.main -A /s/whole.4 /s/query.hmm db.fa \n"
                               "[ok]\n")
                         .string();
    const auto out = (dir.path() / "c.out").string();
    {
        OutputFile f(out);
        copy_renamed(run, {{"/s/whole.main", "o.out"}, {"/s/whole.4", "a.sto"}, {"/s/query.hmm", "-"}}, f);
        f.commit();
    }
    CHECK(slurp(out) == "# query HMM file:                  -\n"
                        "# output directed to file:         o.out\n"
                        "# MSA of all hits saved to file:   a.sto\n"
                        "Query:       fn3  [M=86]\n"
                        "  /s/whole.4 in a line that is not a comment stays\n"
                        "# Alignment of 4 hits satisfying inclusion thresholds saved to: a.sto\n"
                        "# Option settings: hmmsearch -o o.out -A a.sto - db.fa \n"
                        "[ok]\n");
    {
        OutputFile f(out);
        copy_renamed((dir.path() / "missing").string(), {}, f);  // (as an empty file)
        f.commit();
    }
    CHECK(slurp(out).empty());
}

TEST_CASE("outputs are checked before any work, and nothing about them changes") {
    test::TempDir dir;
    const auto kept = dir.write("kept.tbl", "old\n").string();
    check_writable(kept);
    check_writable((dir.path() / "new.tbl").string());
    check_writable("/dev/null");
    check_writable("");
    check_writable("-");
    CHECK(slurp(kept) == "old\n");
    CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), {}) == 1);
    const auto missing = (dir.path() / "nodir" / "t.tbl").string();
    CHECK_THROWS_WITH_AS(check_writable(missing),
                         ("cannot write " + missing + ": cannot create output file: No such file or directory").c_str(),
                         ResourceError);
    CHECK_THROWS_WITH_AS(check_writable(dir.path().string()),
                         ("cannot write " + dir.path().string() + ": Is a directory").c_str(), ResourceError);
    if (::geteuid() != 0) {  // (root writes anywhere)
        std::filesystem::create_directory(dir.path() / "ro");
        std::filesystem::permissions(dir.path() / "ro",
                                     std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
        CHECK_THROWS_AS(check_writable((dir.path() / "ro" / "t.tbl").string()), ResourceError);
        std::filesystem::permissions(dir.path() / "ro", std::filesystem::perms::owner_all);
    }
}
