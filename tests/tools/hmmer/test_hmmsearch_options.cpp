// gpu-hmmsearch's reading of hmmsearch's command line: the spellings Easel
// takes made plain, and the options the filters and the stitching use.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "tools/hmmer/hmmsearch_options.hpp"

using namespace warpdp;

namespace {
using Args = std::vector<std::string>;
HmmsearchCommand read(Args args) {
    args.push_back("m.hmm");
    args.push_back("db.fa");
    return read_hmmsearch_command(args);
}
}  // namespace

TEST_CASE("the files are the last two arguments; the options before them go on in order") {
    const Args options{"--noali", "-E", "1e-3", "--tblout", "t.tbl", "--cpu", "3", "-o", "o.out", "--domtblout", "d"};
    const auto c = read(options);
    CHECK(c.models == "m.hmm");
    CHECK(c.targets == "db.fa");
    CHECK(c.options == options);
    CHECK(c.per_model_options == Args{"--noali", "-E", "1e-3"});
    CHECK(c.tbl_out == "t.tbl");
    CHECK(c.dom_out == "d");
    CHECK(c.main_out == "o.out");
    CHECK(c.cpu == "3");
    CHECK(c.cpu_threads == 3);
    CHECK(c.splittable);
    CHECK_FALSE(c.plain_only);
}

TEST_CASE("Easel's other spellings are made plain: --opt=value, abbreviations, glued values") {
    const auto c = read({"--tblout=t.tbl", "--cp=1", "-Z5", "--nob", "--F1=0.05", "--domE", "-5", "-Ex", "--inc=2"});
    CHECK(c.options == Args{"--tblout", "t.tbl", "--cpu", "1", "-Z", "5", "--nobias", "--F1", "0.05", "--domE", "-5",
                            "-E", "x", "--inc", "2"});
    CHECK(c.tbl_out == "t.tbl");
    CHECK(c.cpu == "1");
    CHECK(c.has_Z);
    CHECK(c.nobias);
    CHECK(c.F1 == "0.05");
    CHECK(c.F2 == "0.001");
}

TEST_CASE("an exact name wins over the longer names it starts; an ambiguous or unknown one goes on as written") {
    CHECK(read({"--domE", "1"}).options == Args{"--domE", "1"});
    CHECK(read({"--domT", "1"}).options == Args{"--domT", "1"});
    // (--no: --noali, --notextw, --nobias, --nonull2; --frob: none)
    CHECK(read({"--no", "--frob", "x"}).options == Args{"--no", "--frob", "x"});
    CHECK_FALSE(read({"--no"}).nobias);
    CHECK(read({"---cpu", "2"}).options == Args{"---cpu", "2"});
    CHECK(read({"--cut_t"}).cutoff == "TC");
    CHECK(read({"--ma"}).plain_only);
    CHECK(read({"--restrictdb_n", "4"}).plain_only);
}

TEST_CASE("an option takes the next argument as its value whatever it looks like, but never a file") {
    CHECK(read({"--tblout", "-o"}).tbl_out == "-o");
    CHECK_THROWS_WITH_AS(read({"--tblout"}), "option --tblout needs a value", UsageError);
    CHECK_THROWS_WITH_AS(read({"-o"}), "option -o needs a value", UsageError);
}

TEST_CASE("-- ends the options only before the two files") {
    CHECK(read({"--acc", "--"}).options == Args{"--acc"});
    CHECK(read({"--", "--acc"}).options == Args{"--", "--acc"});
}

TEST_CASE("refusals: an option given twice, in any spelling; non-FASTA targets; fewer than two files") {
    CHECK_THROWS_WITH_AS(read({"--tblout", "a", "--tblout=b"}), "option --tblout has already been set", UsageError);
    CHECK_THROWS_WITH_AS(read({"--cpu", "1", "--cpu", "2"}), "option --cpu has already been set", UsageError);
    // (hmmsearch refuses every option given twice, the last one does not win)
    CHECK_THROWS_WITH_AS(read({"--F2", "1", "--F2", "0.5"}), "option --F2 has already been set", UsageError);
    CHECK_THROWS_WITH_AS(read({"-E", "1", "-E2"}), "option -E has already been set", UsageError);
    CHECK_THROWS_WITH_AS(read({"--cut_ga", "--cut_g"}), "option --cut_ga has already been set", UsageError);
    // (an unknown option is hmmsearch's to refuse, once or twice)
    CHECK(read({"--frob", "--frob"}).options == Args{"--frob", "--frob"});
    CHECK_THROWS_WITH_AS(read({"--tformat", "embl"}), "--tformat embl: gpu-hmmsearch reads FASTA targets only",
                         UsageError);
    CHECK(read({"--tformat", "FastA"}).per_model_options == Args{"--tformat", "FastA"});
    CHECK_THROWS_WITH_AS(read_hmmsearch_command(Args{"m.hmm"}),
                         "usage: gpu-hmmsearch [hmmsearch options] MODELS.hmm TARGETS.fa", UsageError);
}

TEST_CASE("--cpu is read as hmmsearch reads an integer") {
    CHECK(read({"--cpu", "+2"}).cpu_threads == 2);
    CHECK(read({"--cpu", " 3 "}).cpu_threads == 3);
    CHECK(read({"--cpu", "007"}).cpu_threads == 7);
    CHECK(read({"--cpu", "4294967296"}).cpu_threads == 0);  // (atoi's int: hmmsearch runs serially)
    for (const char* bad : {"abc", "-1", "1.0", "0x2", ""}) {
        CAPTURE(bad);
        CHECK_THROWS_WITH_AS(read({"--cpu", bad}), ("--cpu " + std::string(bad) + ": expected a whole number").c_str(),
                             UsageError);
    }
}

TEST_CASE("whole numbers: digits only, saturating") {
    CHECK_THROWS_WITH_AS(whole_number("WARPDP_SPREAD", "-1"), "WARPDP_SPREAD -1: expected a whole number", UsageError);
    CHECK(whole_number("x", "007") == 7);
    CHECK(whole_number("x", "99999999999999999999999") == UINT64_MAX);
}

TEST_CASE("the option table: values as Easel checks their type and range") {
    const auto number = [](const char* opt, const char* value) {
        return hmmsearch_number(*find_hmmsearch_option(opt), value);
    };
    CHECK(number("-E", "1e-5") == 1e-5);
    CHECK(number("-E", "0x1p-3") == 0.125);
    CHECK(number("-E", " 5") == 5);
    CHECK(number("-E", "5 ") == 5);
    CHECK(number("-E", "+5") == 5);
    CHECK(number("-E", "5.") == 5);
    CHECK(number("-E", "inf") == std::numeric_limits<double>::infinity());
    for (const char* bad : {"0", "-1", "nan", "", "1e", "5x"}) {
        CAPTURE(bad);
        CHECK_FALSE(number("-E", bad));
    }
    CHECK(std::isnan(*number("-T", "nan")));  // (no range: any number)
    CHECK(number("-T", "-5") == -5);
    CHECK(number("--textw", "+130") == 130);
    CHECK(number("--textw", "0130") == 130);
    CHECK(number("--textw", "99999999999") == 1215752191);  // (atoi's int, in range)
    for (const char* bad : {"119", "2147483648", "1e3", "0x90", "130.0"}) {
        CAPTURE(bad);
        CHECK_FALSE(number("--textw", bad));
    }
    CHECK(number("--seed", "4294967338") == 42);
    CHECK_FALSE(number("--seed", "3000000000"));  // (a negative int)
    CHECK(number("--seed", "0") == 0);
    CHECK(number("--F1", "2") == 2);
    CHECK_FALSE(find_hmmsearch_option("-h"));
    CHECK_FALSE(find_hmmsearch_option("--mpi"));
}

TEST_CASE("the option table: a value spelled as Easel's default counts as not given") {
    const auto as_default = [](const char* opt, const char* value) {
        return spelled_as_default(*find_hmmsearch_option(opt), value);
    };
    CHECK(as_default("-E", "10.0"));
    CHECK_FALSE(as_default("-E", "10"));
    CHECK(as_default("--F2", "1e-3"));
    CHECK_FALSE(as_default("--F2", "0.001"));
    CHECK(as_default("--seed", "42"));
    CHECK(as_default("--textw", "120"));
    CHECK(as_default("--cpu", "2"));
    CHECK_FALSE(as_default("-Z", ""));
}

TEST_CASE("-A and --pfamtblout make one run; the options check writes them to /dev/null") {
    const auto c = read({"-A", "a.sto", "--pfamtblout", "p.tbl", "--acc"});
    CHECK_FALSE(c.splittable);
    CHECK(c.ali_out == "a.sto");
    CHECK(c.pfam_out == "p.tbl");
    CHECK(options_check_options(c) == Args{"-A", "/dev/null", "--pfamtblout", "/dev/null", "--acc"});
    CHECK_THROWS_WITH_AS(read({"-A", "a", "-Ab"}), "option -A has already been set", UsageError);
    CHECK_THROWS_WITH_AS(read({"--pfamtblout", "a", "--pfam=b"}), "option --pfamtblout has already been set",
                         UsageError);
}

TEST_CASE("every output goes to the run's own file; the other options stay as they are") {
    const auto c = read({"--tblout", "t.tbl", "-E", "-o", "-o", "o.out", "-A", "a.sto", "--pfamtblout", "p", "--acc"});
    CHECK(c.main_out == "o.out");  // (-E's value is "-o")
    OutputFiles files;
    files.main = "/s/main";
    files.tbl = "/s/tbl";
    files.ali = "/s/ali";
    files.pfam = "/s/pfam";
    CHECK(with_output_files(c.options, files) ==
          Args{"--tblout", "/s/tbl", "-E", "-o", "-o", "/s/main", "-A", "/s/ali", "--pfamtblout", "/s/pfam", "--acc"});
    files.main.clear();  // (a run whose stdout is its main output)
    CHECK(with_output_files(read({"--tblout", "t"}).options, files) == Args{"--tblout", "/s/tbl"});
}

TEST_CASE("-h anywhere asks for hmmsearch's help, --help for gpu-hmmsearch's") {
    CHECK(asks_for_help(Args{"--acc", "-h", "m.hmm", "db.fa"}));
    CHECK(asks_for_help(Args{"-h"}));
    CHECK_FALSE(asks_for_help(Args{"--help", "m.hmm", "db.fa"}));
    CHECK(asks_for_own_help(Args{"--help"}));
    CHECK(asks_for_own_help(Args{"--acc", "--help", "m.hmm", "db.fa"}));
    CHECK_FALSE(asks_for_own_help(Args{"-h"}));
}
