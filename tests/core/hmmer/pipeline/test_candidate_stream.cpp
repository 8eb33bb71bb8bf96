// gpu-viterbi's reading of gpu-msv's stream: the names come back as they were
// in the files (whatever the format did to write them), the place columns
// are taken when present, and a TSV row whose model's name starts with '#'
// is a row, not a comment.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/pipeline/candidate_stream.hpp"
#include "core/io/record_writer.hpp"
#include "test_support.hpp"
#include "zlib_deflate.hpp"

using namespace warpdp;
using warpdp::test::TempDir;

namespace {

const std::string kHeader =
    "#model\tmodel_acc\ttarget\ttarget_len\tmsv_bits\tmsv_pvalue\tbias_bits\tbias_pvalue\tpassed\tmodel_index\t"
    "target_index\n";

std::vector<Candidate> read_text(const TempDir& dir, const std::string& text) {
    const auto path = (dir.path() / "c.txt").string();
    std::ofstream(path, std::ios::binary) << text;
    return read_candidates(path).rows;
}

// One gpu-msv row as its writer makes it, in either format.
std::string row(Format f, const std::string& model, const std::string& target, int64_t mi, int64_t ti) {
    std::string s;
    const std::vector<std::pair<std::string, std::string>> fields{
        {"model", f == Format::tsv ? escape_tsv(model) : json_string(model)},
        {"model_acc", f == Format::tsv ? "-" : "null"},
        {"target", f == Format::tsv ? escape_tsv(target) : json_string(target)},
        {"target_len", "7"},
        {"msv_bits", "1.5"},
        {"msv_pvalue", "0.001"},
        {"bias_bits", "1.5"},
        {"bias_pvalue", "0.001"},
        {"passed", "1"},
        {"model_index", std::to_string(mi)},
        {"target_index", std::to_string(ti)}};
    for (const auto& [k, v] : fields) {
        if (f == Format::tsv) s += (s.empty() ? "" : "\t") + v;
        else s += (s.empty() ? "{" : ",") + json_string(k) + ":" + v;
    }
    return s + (f == Format::tsv ? "\n" : "}\n");
}

}  // namespace

TEST_CASE("names come back as they were in the files, through either format") {
    TempDir dir;
    const std::vector<std::string> names{"plain", "back\\slash", "tab\there", "cr\rlf\n", "#hash", "\\t literal",
                                         "bad\xff" "byte", "trailing\\",
                                         std::string("nul\0byte", 8)};
    for (Format f : {Format::tsv, Format::jsonl}) {
        std::string text = f == Format::tsv ? kHeader : "";
        for (size_t i = 0; i < names.size(); ++i) text += row(f, names[i], names[names.size() - 1 - i], 3, 100 + i);
        const auto got = read_text(dir, text);
        REQUIRE(got.size() == names.size());
        for (size_t i = 0; i < names.size(); ++i) {
            CAPTURE(i);
            CHECK(stream_name_is(got[i], got[i].model, names[i]));
            CHECK(stream_name_is(got[i], got[i].target, names[names.size() - 1 - i]));
            CHECK(got[i].model_index == 3u);
            CHECK(got[i].target_index == 100 + i);
        }
        // TSV is exact; JSON replaced the byte that is not UTF-8, and only
        // a name with that replacement may match another.
        CHECK(got[6].model == (f == Format::tsv ? names[6] : std::string("bad\xEF\xBF\xBD" "byte")));
        CHECK_FALSE(stream_name_is(got[0], got[0].model, "plain2"));
        CHECK_FALSE(stream_name_is(got[6], got[6].model, "bad\xfe" "bytes"));
    }
}

TEST_CASE("TSV: a '#' line is a header only when it repeats the first one") {
    TempDir dir;
    const auto got = read_text(dir, kHeader + row(Format::tsv, "m", "a", 0, 0) + kHeader +
                                        row(Format::tsv, "#m2", "b", 1, 4));
    REQUIRE(got.size() == 2);
    CHECK(got[1].model == "#m2");
    CHECK(got[1].line == 4);
    CHECK_THROWS_WITH_AS(read_text(dir, kHeader + "# a remark\n"), doctest::Contains(":2: expected 11 tab-separated"),
                         InputError);
}

TEST_CASE("streams without the place columns are read by name") {
    TempDir dir;
    const auto got = read_text(dir,
                               "#model\tmodel_acc\ttarget\ttarget_len\tmsv_bits\tmsv_pvalue\tbias_bits\tbias_pvalue\tpassed\n"
                               "m\t-\ta\t7\t1\t0.1\t-\t-\t1\n");
    REQUIRE(got.size() == 1);
    CHECK_FALSE(got[0].model_index);
    CHECK_FALSE(got[0].target_index);
    CHECK_FALSE(got[0].bias_on);
    CHECK_THROWS_WITH_AS(read_text(dir, kHeader + "m\t-\ta\t7\t1\t0.1\t-\t-\t1\t0\tx\n"),
                         doctest::Contains(":2: bad target_index 'x'"), InputError);
}

TEST_CASE("JSONL: counts and places are whole numbers, as gpu-msv writes them") {
    TempDir dir;
    const std::string good = row(Format::jsonl, "m", "a", 0, 5);
    CHECK(read_text(dir, good).size() == 1);
    auto with = [&](const std::string& from, const std::string& to) {
        std::string r = good;
        const size_t at = r.find(from);
        REQUIRE(at != std::string::npos);
        return r.replace(at, from.size(), to);
    };
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
             {"\"target_index\":5", "\"target_index\":1e30"}, {"\"target_index\":5", "\"target_index\":0.7"},
             {"\"target_index\":5", "\"target_index\":-1"}, {"\"target_len\":7", "\"target_len\":7.2"},
             {"\"passed\":1", "\"passed\":true"}, {"\"passed\":1", "\"passed\":1.9"},
             {"\"model_index\":0", "\"model_index\":\"0\""}}) {
        CAPTURE(to);
        CHECK_THROWS_WITH_AS(read_text(dir, with(from, to)), doctest::Contains(":1: bad "), InputError);
    }
}

TEST_CASE("a stream with neither header nor row is blank, one with a header alone is not") {
    TempDir dir;
    const auto path = (dir.path() / "c.txt").string();
    for (const std::string& text : {std::string(), std::string("\n \n\t\n")}) {
        std::ofstream(path, std::ios::binary) << text;
        const CandidateStream s = read_candidates(path);
        CHECK(s.blank);
        CHECK(s.rows.empty());
    }
    std::ofstream(path, std::ios::binary) << kHeader;
    const CandidateStream s = read_candidates(path);
    CHECK_FALSE(s.blank);
    CHECK(s.rows.empty());
}

TEST_CASE("a gzipped stream reads as the plain one, cut lines and all") {
    TempDir dir;
    std::string text = kHeader;
    for (int i = 0; i < 3000; ++i) text += row(Format::tsv, "m", "t" + std::to_string(i), 0, i);
    const auto plain = read_text(dir, text);
    const auto path = dir.write("c.tsv.gz", test::zlib_deflate(text, 6, 15 + 16)).string();
    const auto gz = read_candidates(path).rows;
    REQUIRE(gz.size() == plain.size());
    for (size_t i = 0; i < gz.size(); ++i) {
        CHECK(gz[i].target == plain[i].target);
        CHECK(gz[i].line == plain[i].line);
    }
    const std::string whole = test::zlib_deflate(text, 6, 15 + 16);
    const auto cut = dir.write("cut.tsv.gz", whole.substr(0, whole.size() / 2)).string();
    CHECK_THROWS_WITH_AS((void)read_candidates(cut), doctest::Contains("cut.tsv.gz:"), InputError);
}
