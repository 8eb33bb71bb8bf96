// Models whose local entry scores would not be numbers. fuzz_hmm_reader
// found one (tests/data/fuzz-hmm-reader-nan.hmm) that drove the Viterbi word
// profile into casting a NaN. Such a model is refused by the reader, naming
// the transition line at fault, because hmmsearch cannot search with it
// either (it stops at its Forward filter, "forward score is NaN"); a model
// whose rows merely do not sum to 1 is still read, as hmmsearch reads it;
// and the float -> integer conversions of the profiles refuse a NaN instead
// of casting it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <string>

#include "core/base/errors.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/hmmer_units.hpp"
#include "core/hmmer/msv/msv_model.hpp"
#include "core/hmmer/profile.hpp"
#include "core/hmmer/vit/vit_profile.hpp"
#include "hmmer_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

const std::string kData = WARPDP_TEST_DATA;
const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// `s` with its first `from` (at or after `after`) replaced by `to`.
std::string replace_once(std::string s, const std::string& from, const std::string& to, size_t after = 0) {
    const auto at = s.find(from, after);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
}

uint64_t line_of(const std::string& text, const std::string& needle) {
    const auto at = text.find(needle);
    REQUIRE(at != std::string::npos);
    return 1 + static_cast<uint64_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

// Reads `text` as a model file and requires an InputError naming the file,
// `line` and a message with each of `fragments`.
void expect_refused(const TempDir& dir, const std::string& text, uint64_t line,
                    std::initializer_list<std::string> fragments) {
    const auto p = dir.write("bad.hmm", text).string();
    try {
        (void)read_all_hmms(p);
        FAIL("the model was read");
    } catch (const InputError& e) {
        CAPTURE(e.what());
        CHECK(e.file() == p);
        CHECK(e.line() == line);
        for (const auto& f : fragments) CHECK(e.message().find(f) != std::string::npos);
    }
}

// fn3 with node 1's m->m and m->i both 1 (their sum 2 takes the match
// occupancy above 1), and optionally node 2's m->m 0, which then takes it
// below 0 at node 3.
std::string fn3_unnormalised(bool to_negative) {
    std::string t = replace_once(slurp(kData + "/fn3.hmm"), "0.09796  2.38361  6.81068", "0.00000  0.00000  6.81068");
    if (to_negative) t = replace_once(t, "0.00338  6.08833", "      *  6.08833", t.find("\n      2   "));
    return t;
}

bool have_hmmsearch() {
    return std::filesystem::exists("/usr/bin/hmmsearch") && std::filesystem::exists(kHmmerTutorial + "7LESS_DROME");
}

// hmmsearch's exit status and stderr on `model` against 7LESS_DROME, an fn3 homolog.
std::string hmmsearch_outcome(const std::string& model) {
    return run_command("hmmsearch -o /dev/null " + model + " " + kHmmerTutorial + "7LESS_DROME 2>&1; echo rc=$?");
}

}  // namespace

TEST_CASE("the fuzzer's model is refused, naming the line; with its vertical tab a space, for its NaN entry score") {
    TempDir dir;
    const std::string found = slurp(kData + "/fuzz-hmm-reader-nan.hmm");
    const uint64_t node1_transitions = line_of(found, "0\v00529");
    // Easel does not split at \v: "0\v00529" is one token, not a number.
    expect_refused(dir, found, node1_transitions, {"non-numeric transition '0\\x0b00529'"});
    // Split there, node 1's m->m and m->i are both 1, and node 3's m->m
    // (-ln p = 29) lets the occupancy fall below 0 at node 4.
    expect_refused(dir, replace_once(found, "0\v00529", "0 00529"), node1_transitions,
                   {"the match occupancy rises above 1 after node 1 (whose m->m + m->i sum to 2)", "at node 4",
                    "local entry score of node 4 is not a number"});
}

TEST_CASE("an occupancy driven below 0 is refused at the row that took it above 1, as hmmsearch cannot search with it") {
    TempDir dir;
    const std::string t = fn3_unnormalised(true);
    expect_refused(dir, t, line_of(t, "0.00000  0.00000  6.81068"),
                   {"rises above 1 after node 1 (whose m->m + m->i sum to 2) and is -0.6", "at node 3",
                    "local entry score of node 3"});
    if (!have_hmmsearch()) {
        MESSAGE("hmmsearch or its tutorial files are absent: not compared");
        return;
    }
    const std::string out = hmmsearch_outcome(dir.write("nan.hmm", t).string());
    CAPTURE(out);
    CHECK(out.find("forward score is NaN") != std::string::npos);
    CHECK(out.find("rc=0") == std::string::npos);
}

TEST_CASE("rows that do not sum to 1 but keep the occupancy finite and non-negative are read, as hmmsearch reads them") {
    TempDir dir;
    const auto p = dir.write("odd.hmm", fn3_unnormalised(false)).string();
    const auto models = read_all_hmms(p);
    REQUIRE(models.size() == 1);
    CHECK(models[0].t[1][kTMM] + models[0].t[1][kTMI] == 2.0f);
    const Profile prof = build_profile(models[0]);
    for (int k = 1; k <= prof.M; ++k) CHECK(std::isfinite(prof.tbm[static_cast<size_t>(k)]));
    const MsvModel msv(models[0]);
    CHECK(build_vit_profile(msv.prof).M == 86);
    if (have_hmmsearch()) CHECK(hmmsearch_outcome(p).find("rc=0") != std::string::npos);
}

TEST_CASE("a model in which no match state can be entered is refused at node 0's transitions") {
    TempDir dir;
    const std::string m1 = run_command("gzip -dcf " + kHmmerSuite + "M1.hmm");
    // B -> D_1 only: every occupancy is 0, and so is Z.
    const std::string t = replace_once(m1, "0.01467  4.62483  5.34718", "      *        *  0.00000");
    expect_refused(dir, t, line_of(t, "      *        *  0.00000"),
                   {"no match state can be entered", "local entry score of node 1"});
}

TEST_CASE("a token with a leading vertical tab or form feed reads as atof reads it") {
    TempDir dir;
    const std::string fn3 = slurp(kData + "/fn3.hmm");
    const auto p = dir.write("vt.hmm", replace_once(fn3, "0.09796  2.38361", "0.09796 \v\f2.38361")).string();
    const auto models = read_all_hmms(p);
    REQUIRE(models.size() == 1);
    CHECK(models[0].t[1][kTMI] == read_all_hmms(kData + "/fn3.hmm")[0].t[1][kTMI]);
}

TEST_CASE("the profiles' float -> integer conversions refuse NaN and saturate infinities as HMMER does") {
    CHECK_THROWS_AS((void)vit_word(kNan), InternalError);
    CHECK(vit_word(kInf) == 32767);
    CHECK(vit_word(-kInf) == kWordNegInf);
    CHECK(vit_word(0.0f) == 0);
    CHECK_THROWS_AS((void)hmmer::unbiased_byte(kNan), InternalError);
    CHECK_THROWS_AS((void)hmmer::unbiased_byte(1.0f), InternalError);  // a positive log-probability
    CHECK(hmmer::unbiased_byte(-kInf) == 255);
    CHECK(hmmer::unbiased_byte(0.0f) == 0);
    CHECK_THROWS_AS((void)hmmer::biased_byte(kNan, 10), InternalError);
    CHECK_THROWS_AS((void)hmmer::biased_byte(kInf, 10), InternalError);
    CHECK(hmmer::biased_byte(-kInf, 10) == 255);
    CHECK(hmmer::biased_byte(0.0f, 10) == 10);

    // A model made in code, past the reader's check: the profile refuses it.
    Hmm h = read_all_hmms(kData + "/fn3.hmm")[0];
    h.t[1][kTMM] = h.t[1][kTMI] = 1.0f;
    h.t[2][kTMM] = 0.0f;
    CHECK(first_bad_entry_score(local_entry_scores(match_occupancy(h))) == 3);
    CHECK_THROWS_AS((void)build_profile(h), InternalError);
}
