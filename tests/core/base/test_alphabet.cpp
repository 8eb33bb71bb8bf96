// Alphabet digitisation: every code, case folding, synonyms, rejected bytes.
#include <doctest/doctest.h>

#include <cctype>
#include <string>

#include "core/base/alphabet.hpp"

using warpdp::Alphabet;

TEST_CASE("amino codes follow Easel's order, case-insensitively") {
    const auto& a = Alphabet::amino();
    const std::string order = "ACDEFGHIKLMNPQRSTVWY-BJZOUX*~";
    CHECK(a.K() == 20);
    CHECK(a.Kp() == 29);
    for (int code = 0; code < a.Kp(); ++code) {
        const char c = order[static_cast<size_t>(code)];
        CHECK(a.symbol(code) == c);
        if (c == '-') continue;
        CHECK(a.digitize(static_cast<unsigned char>(c)) == code);
        CHECK(a.digitize(static_cast<unsigned char>(std::tolower(c))) == code);
    }
}

TEST_CASE("amino FASTA quirks: '.' and '_' are gaps, '-' and digits are illegal, blanks ignored") {
    const auto& a = Alphabet::amino();
    CHECK(a.digitize('.') == 20);
    CHECK(a.digitize('_') == 20);
    CHECK(a.digitize('-') == Alphabet::kIllegal);
    for (char c : std::string("0123456789!@#$%^&()+=[]{};:'\",<>/?\\|`")) CHECK(a.digitize(static_cast<unsigned char>(c)) == Alphabet::kIllegal);
    for (char c : std::string(" \t\r")) CHECK(a.digitize(static_cast<unsigned char>(c)) == Alphabet::kIgnored);
    for (int c = 128; c < 256; ++c) CHECK(a.digitize(static_cast<unsigned char>(c)) == Alphabet::kIllegal);
    CHECK(a.digitize('\0') == Alphabet::kIllegal);
}

TEST_CASE("amino degenerate sets") {
    const auto& a = Alphabet::amino();
    auto members = [&](char sym) {
        std::string m;
        const int code = a.digitize(static_cast<unsigned char>(sym));
        for (int y = 0; y < a.K(); ++y) if (a.degenerate_has(code, y)) m += a.symbol(y);
        return m;
    };
    CHECK(members('B') == "DN");
    CHECK(members('J') == "IL");
    CHECK(members('Z') == "EQ");
    CHECK(members('O') == "K");
    CHECK(members('U') == "C");
    CHECK(members('X') == "ACDEFGHIKLMNPQRSTVWY");
    CHECK(members('A') == "A");
    CHECK_FALSE(a.is_residue(a.gap_code()));
    CHECK_FALSE(a.is_residue(a.nonresidue_code()));
    CHECK_FALSE(a.is_residue(a.missing_code()));
    CHECK(a.is_residue(a.any_code()));
}

TEST_CASE("nucleic alphabets: IUPAC codes, T/U synonyms") {
    const auto& d = Alphabet::dna();
    const auto& r = Alphabet::rna();
    CHECK(d.Kp() == 18);
    CHECK(d.digitize('u') == 3);
    CHECK(r.digitize('T') == 3);
    CHECK(r.symbol(3) == 'U');
    const int n = d.digitize('N');
    for (int y = 0; y < 4; ++y) CHECK(d.degenerate_has(n, y));
    const int rr = d.digitize('R');
    CHECK(d.degenerate_has(rr, 0));
    CHECK(d.degenerate_has(rr, 2));
    CHECK_FALSE(d.degenerate_has(rr, 1));
    CHECK(d.digitize('E') == Alphabet::kIllegal);
}
