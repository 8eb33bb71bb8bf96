// gpu-hmmsearch's reading of hmmsearch's command line: the spellings Easel
// takes made plain, and the options the filters and the stitching use.
#include <doctest/doctest.h>

#include <cstdint>
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

TEST_CASE("refusals: repeated outputs or --cpu, non-FASTA targets, fewer than two files") {
    CHECK_THROWS_WITH_AS(read({"--tblout", "a", "--tblout=b"}), "option --tblout has already been set", UsageError);
    CHECK_THROWS_WITH_AS(read({"--cpu", "1", "--cpu", "2"}), "option --cpu has already been set", UsageError);
    CHECK_THROWS_WITH_AS(read({"--tformat", "embl"}), "--tformat embl: gpu-hmmsearch reads FASTA targets only",
                         UsageError);
    CHECK(read({"--tformat", "FastA"}).per_model_options == Args{"--tformat", "FastA"});
    CHECK_THROWS_WITH_AS(read_hmmsearch_command(Args{"m.hmm"}),
                         "usage: gpu-hmmsearch [hmmsearch options] MODELS.hmm TARGETS.fa", UsageError);
    // (the F thresholds may repeat: the last one counts, as in hmmsearch)
    CHECK(read({"--F2", "1", "--F2", "0.5"}).F2 == "0.5");
}

TEST_CASE("whole numbers: digits only, saturating") {
    CHECK_THROWS_WITH_AS(read({"--cpu", "abc"}), "--cpu abc: expected a whole number", UsageError);
    CHECK_THROWS_WITH_AS(whole_number("WARPDP_SPREAD", "-1"), "WARPDP_SPREAD -1: expected a whole number", UsageError);
    CHECK(whole_number("x", "007") == 7);
    CHECK(whole_number("x", "99999999999999999999999") == UINT64_MAX);
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
