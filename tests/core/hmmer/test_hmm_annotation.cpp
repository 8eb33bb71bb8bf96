// The model annotation that hmmsearch's outputs show (docs/hmmer-filters.md
// §1.4): per-node CONS, RF, MM and CS columns as the header flags enable
// them, the consensus HMMER derives for formats without a CONS column, and
// the GA/TC/NC cutoffs.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "hmmer_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

std::string text_of(const std::string& path) { return run_command("gzip -dcf " + path); }

// Field `col` (0-based) of every node's match line of a one-model file,
// joined into a line indexed 1..M with a blank at index 0, as Hmm keeps it.
// A node's match line is the first line after the "HMM" line whose first
// field is the node number and that has 1 + K + `annotation` fields.
std::string column_of(const std::string& text, int K, int annotation, int col) {
    std::istringstream in(text.substr(text.find("\nHMM ")));
    std::string line, out = " ";
    int next = 1;
    while (std::getline(in, line)) {
        std::istringstream f(line);
        std::vector<std::string> tok;
        for (std::string t; f >> t;) tok.push_back(t);
        if (static_cast<int>(tok.size()) == 1 + K + annotation && tok[0] == std::to_string(next)) {
            out += tok[static_cast<size_t>(col)][0];
            ++next;
        }
    }
    return out;
}

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
    const auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("3/f: CONS and CS come from their columns where the header says yes; RF and MM 'no' leave theirs empty") {
    const std::string path = kHmmerTutorial + "fn3.hmm";
    const Hmm h = read_all_hmms(path).at(0);
    const std::string text = text_of(path);
    // match line: node, 20 emissions, MAP CONS RF MM CS
    CHECK(h.consensus == column_of(text, 20, 5, 22));
    CHECK(h.cs == column_of(text, 20, 5, 25));
    CHECK(h.consensus.size() == 87);
    CHECK(h.rf.empty());
    CHECK(h.mm.empty());
}

TEST_CASE("RF yes (a DNA model) fills rf; a 3/f file with MM yes fills mm") {
    const std::string path = std::string(WARPDP_TEST_DATA) + "/3box-dna.hmm";
    const Hmm h = read_all_hmms(path).at(0);
    const std::string text = text_of(path);
    CHECK(h.rf == column_of(text, 4, 5, 7));
    CHECK(h.consensus == column_of(text, 4, 5, 6));
    CHECK(h.cs == column_of(text, 4, 5, 9));
    CHECK(h.mm.empty());

    TempDir dir;
    const std::string with_mm = replace_once(text_of(kHmmerTutorial + "fn3.hmm"), "MM    no", "MM    YES");
    const Hmm m = read_all_hmms(dir.write("mm.hmm", with_mm).string()).at(0);
    CHECK(m.mm == column_of(with_mm, 20, 5, 24));  // '-' at every node, as hmmbuild wrote it
    CHECK(m.mm.size() == 87);
}

TEST_CASE("GA, TC and NC: two cutoffs for amino models, one for both levels in nucleic ones, wherever ALPH stands; absent ones stay unset") {
    const Hmm fn3 = read_all_hmms(kHmmerTutorial + "fn3.hmm").at(0);
    CHECK(fn3.ga.set);
    CHECK(fn3.ga.seq == 8.00f);
    CHECK(fn3.ga.dom == 7.20f);
    CHECK(fn3.tc.seq == 8.00f);
    CHECK(fn3.tc.dom == 7.20f);
    CHECK(fn3.nc.seq == 7.90f);
    CHECK(fn3.nc.dom == 7.90f);
    const Hmm globins = read_all_hmms(kHmmerTutorial + "globins4.hmm").at(0);
    CHECK_FALSE(globins.ga.set);
    CHECK_FALSE(globins.tc.set);
    CHECK_FALSE(globins.nc.set);

    TempDir dir;
    const std::string dna = replace_once(text_of(std::string(WARPDP_TEST_DATA) + "/3box-dna.hmm"), "ALPH  DNA\n",
                                         "ALPH  DNA\nGA    25.50\nTC    26.25 ignored\n");
    const Hmm d = read_all_hmms(dir.write("dna.hmm", dna).string()).at(0);
    CHECK(d.ga.set);
    CHECK(d.ga.seq == 25.5f);
    CHECK(d.ga.dom == 25.5f);
    CHECK(d.tc.seq == 26.25f);
    CHECK(d.tc.dom == 26.25f);
    CHECK_FALSE(d.nc.set);

    // A cutoff line above ALPH counts as many values as the alphabet says.
    const std::string moved = replace_once(replace_once(text_of(std::string(WARPDP_TEST_DATA) + "/3box-dna.hmm"), "ALPH  DNA\n", ""),
                                           "LENG  20\n", "LENG  20\nNC    3.5\nALPH  DNA\n");
    const Hmm n = read_all_hmms(dir.write("nc.hmm", moved).string()).at(0);
    CHECK(n.nc.seq == 3.5f);
    CHECK(n.nc.dom == 3.5f);
}

TEST_CASE("formats before 3/e have no CONS column: the consensus is derived from the match emissions as HMMER derives it") {
    TempDir dir;
    for (const std::string f : {"fn3.hmm", "globins4.hmm", "Pkinase.hmm", "MADE1.hmm"}) {
        const Hmm ref = read_all_hmms(kHmmerTutorial + f).at(0);
        for (char v : std::string("abcde")) {
            CAPTURE(f);
            CAPTURE(v);
            const auto p = dir.write("legacy.hmm", run_command(std::string("hmmconvert --outfmt 3/") + v + " " + kHmmerTutorial + f));
            const Hmm h = read_all_hmms(p.string()).at(0);
            // hmmbuild wrote the CONS column by the same rule, from the
            // unrounded probabilities; the rounding to 5 decimals moves no
            // letter or case in these models.
            CHECK(h.consensus == ref.consensus);
            CHECK(h.cs == ref.cs);
            CHECK(h.rf == ref.rf);
            CHECK(h.mm.empty());
        }
    }
}

TEST_CASE("the derived consensus: first most probable residue, upper case from 0.5 (amino) or 0.9 (DNA) on") {
    TempDir dir;
    std::string t = run_command("hmmconvert --outfmt 3/d " + std::string(WARPDP_TEST_DATA) + "/3box-dna.hmm");
    // Node 1 of 3box: set its match emissions to A 0.9, C 0.1 (-ln: 0.10536, 2.30259),
    // then to a tie of A and G at 0.5 each.
    const std::string node1 = t.substr(t.find("\n      1 ") + 1, t.find('\n', t.find("\n      1 ") + 1) - t.find("\n      1 "));
    std::istringstream f(node1);
    std::vector<std::string> tok;
    for (std::string s; f >> s;) tok.push_back(s);
    REQUIRE(tok.size() == 8);  // node, ACGT, MAP RF CS
    auto with = [&](const std::string& a, const std::string& c, const std::string& g, const std::string& u) {
        const std::string line = "      1   " + a + " " + c + " " + g + " " + u + " " + tok[5] + " " + tok[6] + " " + tok[7] + "\n";
        return read_all_hmms(dir.write("n1.hmm", replace_once(t, node1, line)).string()).at(0).consensus[1];
    };
    CHECK(with("0.10536", "2.30259", "*", "*") == 'A');        // 0.9 exactly in float: upper case
    CHECK(with("0.10537", "2.30258", "*", "*") == 'a');        // just below 0.9
    CHECK(with("*", "0.69315", "0.69315", "*") == 'c');        // tie: the first, C; 0.5 is below 0.9
    CHECK(with("*", "*", "0.69315", "0.69315") == 'g');
}

TEST_CASE("annotation flags must say yes or no; cutoff lines need their values") {
    TempDir dir;
    const std::string fn3 = text_of(kHmmerTutorial + "fn3.hmm");
    // The error names the header line that starts with `tag`.
    auto expect_error = [&](const std::string& text, const std::string& tag, const std::string& fragment) {
        const auto at = text.find("\n" + tag);
        REQUIRE(at != std::string::npos);
        const auto line = 2 + static_cast<uint64_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
        try {
            (void)read_all_hmms(dir.write("bad.hmm", text).string());
            FAIL("no error; expected: " << fragment);
        } catch (const InputError& e) {
            CAPTURE(e.what());
            CHECK(e.line() == line);
            CHECK(e.message().find(fragment) != std::string::npos);
        }
    };
    expect_error(replace_once(fn3, "CS    yes", "CS    maybe"), "CS ", "CS header line must say yes or no, not 'maybe'");
    expect_error(replace_once(fn3, "MAP   yes", "MAP"), "MAP", "MAP without a yes/no value");
    expect_error(replace_once(fn3, "GA    8.00 7.20", "GA    8.00"), "GA ", "GA line: expected 3 fields, found 2");
    expect_error(replace_once(fn3, "NC    7.90 7.90", "NC    7.90 x"), "NC ", "non-numeric cutoff 'x'");
}
