// Outputs may not land on an input or on each other.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "core/base/errors.hpp"
#include "core/io/distinct_paths.hpp"
#include "test_support.hpp"

using namespace warpdp;

TEST_CASE("an output on an input is refused, however the path is spelled") {
    test::TempDir dir;
    const auto db = (dir.path() / "db.fa").string();
    std::ofstream(db) << ">a\nACDE\n";
    std::filesystem::create_symlink(db, dir.path() / "link.fa");
    std::filesystem::create_hard_link(db, dir.path() / "hard.fa");
    const std::vector<NamedPath> inputs{{"--hmm", "m.hmm"}, {"--db", db}};
    for (const std::string& out : {db, (dir.path() / "." / "db.fa").string(), (dir.path() / "link.fa").string(),
                                   (dir.path() / "hard.fa").string(), (dir.path() / "x" / ".." / "db.fa").string()}) {
        CAPTURE(out);
        CHECK_THROWS_WITH_AS(refuse_shared_paths(inputs, {{"-o", "-"}, {"--survivors", out}}),
                             doctest::Contains(("--survivors " + out + " is the input of --db").c_str()), UsageError);
    }
    CHECK_NOTHROW(refuse_shared_paths(inputs, {{"-o", (dir.path() / "new.tsv").string()}, {"--stats", ""}}));
}

TEST_CASE("two outputs on one file are refused, new files included; devices may be shared, stdout may not") {
    test::TempDir dir;
    const auto a = (dir.path() / "a.tsv").string();
    CHECK_THROWS_WITH_AS(refuse_shared_paths({}, {{"-o", a}, {"--stats", (dir.path() / "." / "a.tsv").string()}}),
                         doctest::Contains("-o and --stats both name"), UsageError);
    CHECK_NOTHROW(refuse_shared_paths({}, {{"-o", a}, {"--stats", a + "2"}}));
    // Stdin feeds an input; an empty output path is an output not asked for.
    CHECK_NOTHROW(refuse_shared_paths({{"--db", "-"}}, {{"-o", "-"}, {"--stats", ""}}));
    // Two outputs on stdout would interleave.
    CHECK_THROWS_WITH_AS(refuse_shared_paths({{"--db", "-"}}, {{"-o", "-"}, {"--stats", ""}, {"--survivors", "-"}}),
                         doctest::Contains("-o and --survivors both write to stdout"), UsageError);
    CHECK_NOTHROW(refuse_shared_paths({{"--db", "/dev/null"}}, {{"-o", "/dev/null"}, {"--stats", "/dev/null"}}));
}
