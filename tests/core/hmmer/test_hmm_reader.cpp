// HMMER3 save-file reader: the installed Pfam examples (3/e, 3/f, gzip,
// M = 1), every legacy format made by hmmconvert, multi-model files, stdin,
// and each malformed-input case with the line it must name.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "hmmer_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

std::string slurp(const std::string& path) { return run_command("gzip -dcf " + path); }

// 1-based number of the first line containing `needle`.
uint64_t line_of(const std::string& text, const std::string& needle) {
    const auto at = text.find(needle);
    REQUIRE(at != std::string::npos);
    return 1 + static_cast<uint64_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
    const auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
}

// Removes the whole line that contains `needle`.
std::string drop_line(std::string s, const std::string& needle) {
    const auto at = s.find(needle);
    REQUIRE(at != std::string::npos);
    const auto b = s.rfind('\n', at);
    const auto start = b == std::string::npos ? 0 : b + 1;
    return s.erase(start, s.find('\n', at) + 1 - start);
}

// Parses `text` and requires an InputError at `line` whose message contains `fragment`.
void expect_error(const TempDir& dir, const std::string& text, uint64_t line, const std::string& fragment) {
    const auto p = dir.write("bad.hmm", text);
    try {
        (void)read_all_hmms(p.string());
        FAIL("no error; expected: " << fragment);
    } catch (const InputError& e) {
        CAPTURE(e.what());
        CHECK(e.file() == p.string());
        CHECK(e.line() == line);
        CHECK(e.message().find(fragment) != std::string::npos);
    }
}

float p_of(const char* token) { return std::exp(static_cast<float>(-std::atof(token))); }

}  // namespace

TEST_CASE("tutorial and testsuite models parse with their header values") {
    const Hmm fn3 = read_all_hmms(kHmmerTutorial + "fn3.hmm").at(0);
    CHECK(fn3.name == "fn3");
    CHECK(fn3.acc == "PF00041.13");
    CHECK(fn3.desc == "Fibronectin type III domain");
    CHECK(fn3.M == 86);
    CHECK(fn3.format_version == 'f');
    CHECK(fn3.alph == AlphabetKind::amino);
    CHECK(fn3.has_stats);
    CHECK(fn3.has_compo);
    CHECK(fn3.evparam[kMsvMu] == -9.4043f);
    CHECK(fn3.evparam[kMsvLambda] == 0.71847f);
    CHECK(fn3.evparam[kVitMu] == -9.7737f);
    CHECK(fn3.evparam[kFwdTau] == -3.8341f);
    // Exact conversion of single fields: p = expf(f32(-atof(token))), '*' = 0.
    CHECK(fn3.compo[0] == p_of("2.70330"));
    CHECK(fn3.t[0][kTMM] == p_of("0.00338"));
    CHECK(fn3.t[0][kTDD] == 0.0f);
    CHECK(fn3.t[0][kTDM] == 1.0f);
    CHECK(fn3.match(1, 12) == p_of("0.76706"));
    CHECK(fn3.t[1][kTDD] == p_of("0.95510"));
    CHECK(fn3.t[86][kTMD] == 0.0f);

    for (const std::string f : {"fn3.hmm", "globins4.hmm", "Pkinase.hmm", "MADE1.hmm"}) {
        CAPTURE(f);
        const auto all = read_all_hmms(kHmmerTutorial + f);
        REQUIRE(all.size() == 1);
        const Hmm& h = all[0];
        CHECK(h.has_stats);
        for (int k = 1; k <= h.M; ++k) {  // rows are probability vectors (to the file's 5 decimals)
            float sm = 0, si = 0;
            for (int x = 0; x < h.K; ++x) { sm += h.match(k, x); si += h.insert(k, x); }
            CHECK(std::fabs(sm - 1.0f) < 1e-3f);
            CHECK(std::fabs(si - 1.0f) < 1e-3f);
        }
    }
    CHECK(read_all_hmms(kHmmerTutorial + "globins4.hmm")[0].M == 149);
    CHECK(read_all_hmms(kHmmerTutorial + "Pkinase.hmm")[0].M == 260);
    CHECK(read_all_hmms(kHmmerTutorial + "MADE1.hmm")[0].alph == AlphabetKind::dna);

    const Hmm m1 = read_all_hmms(kHmmerSuite + "M1.hmm").at(0);
    CHECK(m1.M == 1);
    CHECK(m1.format_version == 'e');
    CHECK(m1.evparam[kMsvMu] == -4.9046f);

    for (const std::string f : {"RRM_1.hmm.gz", "20aa.hmm.gz", "3box.hmm.gz", "Caudal_act.hmm.gz", "LuxC.hmm.gz",
                                "Patched.hmm.gz", "SMC_N.hmm.gz", "2OG-FeII_Oxy_3.hmm.gz", "2OG-FeII_Oxy_3-nt.hmm.gz",
                                "PSE.hmm", "XYPPX.hmm", "ecori.hmm"}) {
        CAPTURE(f);
        const auto all = read_all_hmms(kHmmerSuite + f);
        CHECK(all.size() >= 1);
        for (const auto& h : all) CHECK(h.M > 0);
    }
    const Hmm rrm = read_all_hmms(kHmmerSuite + "RRM_1.hmm.gz").at(0);
    CHECK(rrm.name == "RRM_1");
    CHECK(rrm.M == 71);
    CHECK(rrm.evparam[kMsvMu] == -8.6173f);
}

TEST_CASE("gzip, plain and stdin input give the same models; many models per file") {
    TempDir dir;
    const std::string fn3 = slurp(kHmmerTutorial + "fn3.hmm");
    const std::string all3 = fn3 + slurp(kHmmerTutorial + "globins4.hmm") + slurp(kHmmerTutorial + "Pkinase.hmm");
    const auto plain = dir.write("three.hmm", all3);
    run_command("gzip -c " + plain.string() + " > " + plain.string() + ".gz");
    const auto a = read_all_hmms(plain.string());
    const auto b = read_all_hmms(plain.string() + ".gz");
    REQUIRE(a.size() == 3);
    REQUIRE(b.size() == 3);
    CHECK(a[0].name == "fn3");
    CHECK(a[1].name == "globins4");
    CHECK(a[2].name == "Pkinase");
    for (size_t i = 0; i < 3; ++i) {
        CHECK(a[i].mat == b[i].mat);
        CHECK(a[i].ins == b[i].ins);
        CHECK(a[i].t == b[i].t);
    }
    // "-" reads standard input.
    const int saved = dup(0);
    const int fd = open((plain.string() + ".gz").c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    dup2(fd, 0);
    close(fd);
    const auto c = read_all_hmms("-");
    dup2(saved, 0);
    close(saved);
    REQUIRE(c.size() == 3);
    CHECK(c[2].mat == a[2].mat);

    // The HmmReader interface streams the same models.
    HmmReader r(plain.string());
    Hmm h;
    int n = 0;
    while (r.next(h)) ++n;
    CHECK(n == 3);
    CHECK_FALSE(r.next(h));
}

TEST_CASE("legacy formats 3/a..3/e (hmmconvert) read as the same model") {
    TempDir dir;
    for (const std::string f : {"fn3.hmm", "Pkinase.hmm"}) {
        const Hmm ref = read_all_hmms(kHmmerTutorial + f).at(0);
        for (char v : std::string("abcde")) {
            CAPTURE(f);
            CAPTURE(v);
            const auto p = dir.write("legacy.hmm", run_command(std::string("hmmconvert --outfmt 3/") + v + " " + kHmmerTutorial + f));
            const Hmm h = read_all_hmms(p.string()).at(0);
            CHECK(h.format_version == v);
            CHECK(h.M == ref.M);
            CHECK(h.t == ref.t);
            CHECK(h.mat == ref.mat);
            CHECK(h.ins == ref.ins);
            CHECK(h.compo == ref.compo);
            CHECK(h.evparam[kMsvMu] == ref.evparam[kMsvMu]);
            CHECK(h.evparam[kMsvLambda] == ref.evparam[kMsvLambda]);
            CHECK(h.evparam[kFwdTau] == ref.evparam[kFwdTau]);
            if (v != 'a') CHECK(h.evparam == ref.evparam);
        }
    }
}

TEST_CASE("what HMMER's reader also takes reads as the same model: STATS keywords in any case, extra fields at a line's end, a leading '+'") {
    TempDir dir;
    const std::string fn3 = slurp(kHmmerTutorial + "fn3.hmm");
    const Hmm ref = read_all_hmms(kHmmerTutorial + "fn3.hmm").at(0);
    std::string t = replace_once(fn3, "STATS LOCAL MSV", "STATS local msv");
    t = replace_once(t, "STATS LOCAL FORWARD", "STATS Local Forward");
    t = replace_once(t, "0.09796  2.38361  6.81068  0.10064  2.34607  0.48576  0.95510",
                     "0.09796  2.38361  6.81068  0.10064  2.34607  0.48576  0.95510  extra tokens");
    t = replace_once(t, "3.93889      1 p - -", "+3.93889      1 p - - - more");
    t = replace_once(t, "LENG  86", "LENG  +86");
    const Hmm h = read_all_hmms(dir.write("lenient.hmm", t).string()).at(0);
    CHECK(h.M == ref.M);
    CHECK(h.t == ref.t);
    CHECK(h.mat == ref.mat);
    CHECK(h.ins == ref.ins);
    CHECK(h.compo == ref.compo);
    CHECK(h.evparam == ref.evparam);
    // Signs that atof would take but that are no number of a save file.
    for (const char* bad : {"++3.93889", "+-3.93889", "+"}) {
        CAPTURE(bad);
        const std::string b = replace_once(fn3, "3.93889      1 p", std::string(bad) + "      1 p");
        expect_error(dir, b, line_of(b, std::string(bad) + "      1 p"), "non-numeric");
    }
}

TEST_CASE("a model without STATS or COMPO is read, flagged, not rejected") {
    TempDir dir;
    std::string t = slurp(kHmmerTutorial + "fn3.hmm");
    t = drop_line(drop_line(drop_line(t, "STATS LOCAL MSV"), "STATS LOCAL VITERBI"), "STATS LOCAL FORWARD");
    t = drop_line(t, "  COMPO ");
    const Hmm h = read_all_hmms(dir.write("nostats.hmm", t).string()).at(0);
    CHECK_FALSE(h.has_stats);
    CHECK(h.evparam[kMsvMu] == kEvParamUnset);
    CHECK_FALSE(h.has_compo);
    CHECK(h.compo == std::vector<float>(20, 0.0f));
    CHECK(h.M == 86);
}

TEST_CASE("malformed files: InputError naming the line") {
    TempDir dir;
    const std::string fn3 = slurp(kHmmerTutorial + "fn3.hmm");
    const uint64_t hmm_line = line_of(fn3, "\nHMM ") + 1;
    const uint64_t last_line = static_cast<uint64_t>(std::count(fn3.begin(), fn3.end(), '\n'));

    SUBCASE("empty") {
        expect_error(dir, "", 0, "no HMM found");
        expect_error(dir, "\n   \n# comment\n", 0, "no HMM found");
    }
    SUBCASE("not an HMM file") { expect_error(dir, ">seq\nACDE\n", 1, "not a HMMER3 save file"); }
    SUBCASE("missing required tags") {
        expect_error(dir, drop_line(fn3, "NAME  fn3"), hmm_line - 1, "no NAME");
        expect_error(dir, drop_line(fn3, "LENG  86"), hmm_line - 1, "no LENG");
        expect_error(dir, drop_line(fn3, "ALPH  amino"), hmm_line - 1, "no ALPH");
        const std::string no_hmm = drop_line(fn3, "HMM          A");
        expect_error(dir, no_hmm, last_line - 1, "without an 'HMM' line");
    }
    SUBCASE("wrong node number") {
        const std::string t = replace_once(fn3, "\n      2   ", "\n      3   ");
        expect_error(dir, t, line_of(t, "\n      3   ") + 1, "wrong node number: expected 2, found 3");
    }
    SUBCASE("non-numeric fields") {
        std::string t = replace_once(fn3, "\n      1   3.16986", "\n      1   3.1x986");
        expect_error(dir, t, line_of(t, "3.1x986"), "non-numeric match emission '3.1x986'");
        t = replace_once(fn3, "LENG  86", "LENG  8six");
        expect_error(dir, t, line_of(t, "LENG"), "non-numeric LENG");
        t = replace_once(fn3, "STATS LOCAL MSV       -9.4043", "STATS LOCAL MSV       -9.4O43");
        expect_error(dir, t, line_of(t, "-9.4O43"), "non-numeric STATS value");
        t = replace_once(fn3, "      1   3.16986", "      one 3.16986");
        expect_error(dir, t, line_of(t, "      one"), "non-numeric node number");
    }
    SUBCASE("wrong field counts") {
        std::string t = replace_once(fn3, "0.09796  2.38361  6.81068  0.10064  2.34607  0.48576  0.95510",
                                     "0.09796  2.38361  6.81068  0.10064  2.34607  0.48576");
        expect_error(dir, t, line_of(t, "0.09796  2.38361"), "node 1 transition line: expected 7 fields, found 6");
        t = replace_once(fn3, "3.93889      1 p - - -", "3.93889      1 p - -");
        expect_error(dir, t, line_of(t, "3.93889      1 p - -"), "node 1 match emission line: expected 26 fields, found 25");
        t = replace_once(fn3, "  COMPO   2.70330 ", "  COMPO ");
        expect_error(dir, t, line_of(t, "  COMPO "), "COMPO line: expected 21 fields, found 20");
    }
    SUBCASE("truncated: missing '//' or cut inside the body") {
        std::string t = fn3.substr(0, fn3.rfind("//"));
        expect_error(dir, t, last_line - 1, "before the closing '//'");
        t = fn3.substr(0, fn3.find("\n     40 ") + 1);
        expect_error(dir, t, static_cast<uint64_t>(std::count(t.begin(), t.end(), '\n')), "truncated model: end of file while expecting node 40");
    }
    SUBCASE("mixed format versions") {
        const std::string t = fn3 + slurp(kHmmerSuite + "M1.hmm");
        expect_error(dir, t, last_line + 1, "mixed format versions in one file: HMMER3/e after HMMER3/f");
    }
    SUBCASE("STATS partially present") {
        const std::string t = drop_line(fn3, "STATS LOCAL VITERBI");
        expect_error(dir, t, hmm_line - 1, "STATS lines only partially present");
    }
    SUBCASE("unknown alphabet") {
        const std::string t = replace_once(fn3, "ALPH  amino", "ALPH  coins");
        expect_error(dir, t, line_of(t, "ALPH"), "unknown alphabet 'coins'");
    }
    SUBCASE("LENG disagrees with the node count") {
        std::string t = replace_once(fn3, "LENG  86", "LENG  87");
        expect_error(dir, t, last_line, "LENG is 87 but the model ends after 86 nodes");
        t = replace_once(fn3, "LENG  86", "LENG  85");
        expect_error(dir, t, line_of(t, "\n     86 ") + 1, "LENG is 85 but the model has more nodes");
        t = replace_once(fn3, "LENG  86", "LENG  0");
        expect_error(dir, t, line_of(t, "LENG"), "LENG must be positive");
    }
    SUBCASE("absurd LENG") {
        const std::string t = replace_once(fn3, "LENG  86", "LENG  2000000");
        expect_error(dir, t, line_of(t, "LENG"), "absurd LENG 2000000");
    }
    SUBCASE("missing file") {
        CHECK_THROWS_AS((void)read_all_hmms((dir.path() / "nope.hmm").string()), InputError);
    }
}
