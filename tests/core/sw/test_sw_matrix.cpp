// gpu-sw's matrices and statistics (docs/sw.md §2, §7): the built-ins and
// their letters, letters outside a matrix, the NCBI-format reader's checks
// (each a one-line error naming the line), and the Karlin-Altschul table:
// BLAST's entries for our gap costs, refusals, bit scores and E-values
// computed by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "core/base/errors.hpp"
#include "core/sw/sw_matrix.hpp"
#include "core/sw/sw_stats.hpp"

using namespace warpdp;

TEST_CASE("built-in matrices") {
    const SwMatrix& m = SwMatrix::builtin("blosum62");
    CHECK(m.name() == "BLOSUM62");
    CHECK(m.letters() == "ARNDCQEGHILKMFPSTWYVBZX*");
    auto s = [&](char a, char b) { return m.score(m.code_of(static_cast<unsigned char>(a)), m.code_of(static_cast<unsigned char>(b))); };
    CHECK(s('W', 'W') == 11);
    CHECK(s('A', 'R') == -1);
    CHECK(s('X', 'X') == -1);
    CHECK(s('*', 'A') == -4);
    CHECK(s('*', '*') == 1);
    CHECK(s('U', 'U') == 1);   // outside the alphabet: '*'
    CHECK(s('j', 'W') == -4);
    CHECK(s('w', 'W') == 11);  // any case
    CHECK(m.unknown_code() == m.code_of('*'));
    CHECK(m.max_entry() == 11);
    CHECK(m.min_entry() == -4);
    CHECK(SwMatrix::builtin("BLOSUM80").score(SwMatrix::builtin("BLOSUM80").code_of('*'), 0) == -8);
    CHECK(SwMatrix::builtin("BLOSUM45").score(SwMatrix::builtin("BLOSUM45").code_of('W'), SwMatrix::builtin("BLOSUM45").code_of('W')) == 15);
    CHECK(SwMatrix::builtin_names().size() == 4);
    for (const auto& name : SwMatrix::builtin_names()) {
        const SwMatrix& b = SwMatrix::builtin(name);
        for (int x = 0; x < b.size(); ++x)
            for (int y = 0; y < b.size(); ++y) CHECK(b.score(x, y) == b.score(y, x));
    }
    CHECK_THROWS_WITH_AS(SwMatrix::builtin("PAM250"),
                         "unknown matrix 'PAM250' (built in: BLOSUM45, BLOSUM50, BLOSUM62, BLOSUM80; or --matrix FILE)",
                         UsageError);
}

TEST_CASE("NCBI-format matrices") {
    const std::string ok = "# comment\n\n   A  B  X\nA  4 -1  0\nX  0 -1 -1\nB -1  3 -2\n";
    const SwMatrix m = SwMatrix::parse_ncbi(ok, "m.txt", "m");
    CHECK(m.letters() == "ABX");
    CHECK(m.score(1, 2) == -2);  // row B (query), column X (target): not symmetric
    CHECK(m.score(2, 1) == -1);
    CHECK(m.unknown_code() == 2);  // no '*': X
    CHECK(m.code_of('Z') == 2);
    auto err = [](const std::string& text) {
        try {
            (void)SwMatrix::parse_ncbi(text, "m.txt", "m");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(err("   A B\nA 1 2\n") == "m.txt: matrix has no row for 'B'");
    CHECK(err("   A X\nA 1 2\nX 1\n") == "m.txt:3: matrix row 'X' has 1 entries, the header 2 letters");
    CHECK(err("   A X\nA 1 2\nA 1 2\n") == "m.txt:3: matrix has two rows for 'A'");
    CHECK(err("   A X\nA 1 2.5\n") == "m.txt:2: matrix entry \"2.5\" is not a whole number from -127 to 127");
    CHECK(err("   A X\nA 1 200\n") == "m.txt:2: matrix entry \"200\" is not a whole number from -127 to 127");
    CHECK(err("   A AB\n") == "m.txt:1: matrix header: \"AB\" is not a single letter or '*'");
    CHECK(err("   A a\n") == "m.txt:1: matrix header names 'A' twice");
    CHECK(err("   A X\nQ 1 2\n") == "m.txt:2: matrix row \"Q\" is not a letter of the header line");
    CHECK(err("   A B\nA 1 2\nB 2 1\n") == "m.txt: matrix has neither '*' nor 'X', which letters outside its alphabet score as");
    CHECK(err("# only comments\n") == "m.txt: no matrix: no header line of letters");
}

TEST_CASE("matrix file errors quote a field short and printable") {
    auto err = [](const std::string& text) {
        try {
            (void)SwMatrix::parse_ncbi(text, "m.txt", "m");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    // A binary file's first line is one long field of any bytes, NUL included.
    CHECK(err(std::string("\x7f" "ELF\x02\x01", 6) + std::string(1, '\0') + std::string(100000, 'Q') + "\n") ==
          "m.txt:1: matrix header: \"\\x7FELF\\x02\\x01\\x00QQQQQQQQQQQQQ...\" is not a single letter or '*'");
    CHECK(err("   A X\nA 1 \x1b[31m\n") == "m.txt:2: matrix entry \"\\x1B[31m\" is not a whole number from -127 to 127");
    CHECK(err("   A X\nA 1 " + std::string(100000, '7') + "\n") ==
          "m.txt:2: matrix entry \"77777777777777777777...\" is not a whole number from -127 to 127");
    CHECK(err("   A X\n" + std::string(30, 'A') + " 1 2\n") ==
          "m.txt:2: matrix row \"AAAAAAAAAAAAAAAAAAAA...\" is not a letter of the header line");
}

TEST_CASE("Karlin-Altschul parameters, bit scores and E-values") {
    // Looked up in BLAST's terms (existence, extension): its rows as
    // blast_stat.c lists them.
    const auto p = sw_karlin_params("BLOSUM62", 10, 1);
    REQUIRE(p);
    CHECK(p->lambda == 0.243);
    CHECK(p->K == 0.024);
    CHECK(p->existence == 10);
    CHECK(p->extension == 1);
    const auto blast_default = sw_karlin_params("BLOSUM62", 11, 1);
    REQUIRE(blast_default);
    CHECK(blast_default->lambda == 0.267);
    CHECK(blast_default->K == 0.041);
    CHECK(sw_karlin_params("BLOSUM45", 14, 2)->lambda == 0.195);
    CHECK(sw_karlin_params("BLOSUM80", 25, 2)->K == 0.17);
    CHECK(!sw_karlin_params("BLOSUM62", 5, 1));
    CHECK(!sw_karlin_params("BLOSUM62", 12, 2));
    CHECK(!sw_karlin_params("BLOSUM50", 11, 2));
    CHECK(!sw_karlin_params("mine", 11, 1));
    CHECK(sw_karlin_gap_pairs("BLOSUM80") ==
          std::vector<std::string>{"25/2", "13/2", "9/2", "8/2", "7/2", "6/2", "11/1", "10/1", "9/1"});
    // Score 58, query 15 x database 41 residues, lambda 0.243, K 0.024.
    const double bits = (0.243 * 58 - std::log(0.024)) / std::log(2.0);
    CHECK(sw_bit_score(*p, 58) == doctest::Approx(bits).epsilon(1e-12));
    CHECK(sw_bit_score(*p, 58) == doctest::Approx(25.7142).epsilon(1e-5));
    CHECK(sw_evalue(*p, 58, 15.0 * 41) == doctest::Approx(0.024 * 615 * std::exp(-0.243 * 58)).epsilon(1e-12));
}

TEST_CASE("a matrix file holding a built-in's entries gets its statistics") {
    std::string text = "   ";
    const SwMatrix& b = SwMatrix::builtin("BLOSUM62");
    const std::string letters = "ARNDCQEGHILKMFPSTWYVBZX";  // no '*', as FASTA's files
    for (char c : letters) text += std::string(" ") + c;
    text += "\n";
    for (char a : letters) {
        text += a;
        for (char c : letters) text += " " + std::to_string(b.score(b.code_of(static_cast<unsigned char>(a)), b.code_of(static_cast<unsigned char>(c))));
        text += "\n";
    }
    const SwMatrix f = SwMatrix::parse_ncbi(text, "blosum62.mat", "blosum62.mat");
    CHECK(sw_statistics_name(f) == "BLOSUM62");
    std::string changed = text;
    const size_t w = changed.rfind("\nW ");
    changed.replace(changed.find(" 11", w), 3, " 12");
    CHECK(sw_statistics_name(SwMatrix::parse_ncbi(changed, "x.mat", "x.mat")) == "x.mat");
}
