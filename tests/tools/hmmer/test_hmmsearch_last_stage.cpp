// Which searches gpu-hmmsearch's own last stage covers (docs/hmmer-filters.md
// §16.7): every option hmmsearch accepts among the covered ones, and
// nothing hmmsearch refuses.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tools/hmmer/hmmsearch_last_stage.hpp"
#include "tools/hmmer/hmmsearch_report_options.hpp"

using namespace warpdp;

namespace {
using Args = std::vector<std::string>;
}  // namespace

TEST_CASE("values hmmsearch accepts are covered, in every spelling Easel reads") {
    for (const Args& ok : {Args{"-E", "1e-5"}, Args{"-E", "0x1p-3"}, Args{"-E", " 5"}, Args{"-E", "+5"},
                           Args{"-E", "5."}, Args{"-E", "5 "}, Args{"-T", "nan"}, Args{"--textw", "+130"},
                           Args{"--textw", "99999999999"}, Args{"--seed", " 7"}, Args{"-Z", "5.5"},
                           Args{"--F1", "2"}, Args{"--cpu", "+1"}, Args{"--tformat", "fasta"}, Args{"--cut_ga"},
                           Args{"-E", "1", "--domT", "3", "--max", "--nonull2", "-o", "x"}}) {
        CAPTURE(ok.front());
        CAPTURE(ok.back());
        CHECK(last_stage_refusal(ok).empty());
    }
}

TEST_CASE("values and combinations hmmsearch refuses are left to it, never covered") {
    for (const Args& bad : {Args{"-E", "0"}, Args{"-E", "nan"}, Args{"-E", "1e"}, Args{"--textw", "119"},
                            Args{"--textw", "2147483648"}, Args{"--textw", "1e3"}, Args{"--seed", "-1"},
                            Args{"--seed", "3000000000"}, Args{"--seed", "0x10"}, Args{"-Z", "0"},
                            Args{"-E", "1", "-T", "2"}, Args{"--cut_ga", "--incdomT", "1"}, Args{"--max", "--F1", "1"},
                            Args{"--nobias", "--max"}, Args{"--textw", "130", "--notextw"}, Args{"--frob"}}) {
        CAPTURE(bad.front());
        CAPTURE(bad.back());
        CHECK_FALSE(last_stage_refusal(bad).empty());
    }
    // (a seed from the clock: the result would depend on the order of the targets)
    CHECK(last_stage_refusal(Args{"--seed", "4294967296"}) ==
          "--seed 0 (a seed from the clock, no reseeding) is not covered");
    CHECK(last_stage_refusal(Args{"--ssifile", "x"}) == "option --ssifile is not covered by warpdp's last stage");
}

TEST_CASE("report options: numbers as hmmsearch reads them, defaults' spellings as not given") {
    const ReportOptions o = read_report_options(
        {"-E", "10.0", "--domE", "10", "--F2", "0.001", "--F1", "0.02", "--seed", "42", "--textw", "0130", "-Z", "5"});
    CHECK_FALSE(o.E);
    CHECK(o.domE == 10);
    CHECK(o.F2 == 0.001);
    CHECK_FALSE(o.F1);
    CHECK_FALSE(o.seed);
    CHECK(o.textw == 130);
    CHECK(o.Z == 5);
    CHECK(read_report_options({"--seed", "4294967338"}).seed == 42);
}
