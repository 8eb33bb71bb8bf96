// gpu-msv's rows are the stream gpu-viterbi reads: the header its writer
// makes names every column the candidate stream needs, in the schema's
// order, and a row written comes back with the same identity, in either
// format. gpu-viterbi's header is its columns.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/pipeline/candidate_columns.hpp"
#include "core/hmmer/pipeline/candidate_stream.hpp"
#include "core/io/output_file.hpp"
#include "tools/hmmer/msv_output.hpp"
#include "tools/hmmer/viterbi_output.hpp"
#include "test_support.hpp"

using namespace warpdp;
using warpdp::test::TempDir;

namespace {

std::string first_line(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    std::getline(in, line);
    return line;
}

Hmm fn3() { return read_all_hmms(std::string(WARPDP_TEST_DATA) + "/fn3.hmm").at(0); }

}  // namespace

TEST_CASE("gpu-msv's header is the schema, and names every column the candidate stream needs") {
    TempDir dir;
    const std::string path = (dir.path() / "h.tsv").string();
    {
        OutputFile out(path);
        MsvRowWriter(out, Format::tsv, true).header();
        out.commit();
    }
    std::string want = "#";
    for (size_t i = 0; i < kMsvColumnNames.size(); ++i) want += std::string(i ? "\t" : "") + kMsvColumnNames[i];
    CHECK(first_line(path) == want);
    for (const MsvColumn c : kCandidateColumnsNeeded) CHECK(want.find(column_name(c)) != std::string::npos);
    const CandidateStream s = read_candidates(path);  // a header alone: no rows, no complaint
    CHECK_FALSE(s.blank);
    CHECK(s.rows.empty());
}

TEST_CASE("a gpu-msv row written then read back as a candidate, TSV and JSON Lines") {
    TempDir dir;
    const MsvModel model(fn3());
    MsvRow passed;
    passed.target = 41;
    passed.length = 19;
    passed.scored = passed.bias_scored = passed.passed_msv = passed.passed = true;
    passed.v.msv_bits = 12.5f;
    passed.v.msv_p = 1e-4;
    passed.v.bias_bits = 11.25f;
    passed.v.bias_p = 3e-4;
    MsvRow failed = passed;
    failed.target = 42;
    failed.length = 7;
    failed.bias_scored = failed.passed = false;
    const std::string name_a = "tab\there back\\slash", name_b = "plain";
    for (const Format f : {Format::tsv, Format::jsonl}) {
        for (const bool bias_on : {true, false}) {
            CAPTURE(static_cast<int>(f));
            CAPTURE(bias_on);
            const std::string path = (dir.path() / "rows").string();
            {
                OutputFile out(path);
                MsvRowWriter w(out, f, bias_on);
                w.header();
                w.write(model, 3, passed, name_a);
                w.write(model, 3, failed, name_b);
                out.commit();
            }
            const auto rows = read_candidates(path).rows;
            REQUIRE(rows.size() == 2);
            CHECK(rows[0].model == model.hmm.name);
            CHECK(rows[0].target == name_a);
            CHECK(rows[0].target_len == 19);
            CHECK(rows[0].model_index == 3u);
            CHECK(rows[0].target_index == 41u);
            CHECK(rows[0].passed);
            CHECK(rows[0].bias_on == bias_on);
            CHECK(rows[0].from_json == (f == Format::jsonl));
            CHECK(rows[1].target == name_b);
            CHECK(rows[1].target_len == 7);
            CHECK(rows[1].target_index == 42u);
            CHECK_FALSE(rows[1].passed);
            CHECK_FALSE(rows[1].bias_on);  // the bias filter did not run on it
        }
    }
}

TEST_CASE("gpu-viterbi's header is its columns, the Forward ones last with --forward") {
    TempDir dir;
    const std::vector<FilterModel> models{FilterModel(fn3())};
    const std::vector<std::vector<FilterRow>> rows(1);
    for (const bool forward : {false, true}) {
        const std::string path = (dir.path() / "v.tsv").string();
        {
            OutputFile out(path);
            write_viterbi_rows(out, Format::tsv, forward, models, rows);
            out.commit();
        }
        CHECK(first_line(path) == std::string("#model\tmodel_acc\ttarget\ttarget_len\tvit_bits\tvit_pvalue\tskipped\tpassed") +
                                      (forward ? "\tfwd_bits\tfwd_pvalue\tfwd_passed" : ""));
    }
}
