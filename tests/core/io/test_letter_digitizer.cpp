// LetterDigitizer, the sequence reader's inner loop: every variant of its
// table (the SSSE3 lookup, the serial loop) gives the serial loop's codes,
// newline count and illegal flag on fresh random text, for each alphabet's
// reading map, at every length around the 16-byte vector step.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/io/letter_digitizer.hpp"
#include "simd_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;

namespace {

// The reader's map: the alphabet's, with '\n' ignored (core/io/seq_parser.cpp).
std::array<int8_t, 256> reading_map(const Alphabet& abc) {
    std::array<int8_t, 256> map{};
    for (int c = 0; c < 256; ++c) map[static_cast<size_t>(c)] = abc.digitize(static_cast<unsigned char>(c));
    map['\n'] = Alphabet::kIgnored;
    return map;
}

// Serial truth, written out plainly.
LetterDigitizer::Result by_hand(const std::array<int8_t, 256>& map, const std::string& text, std::vector<uint8_t>& out) {
    LetterDigitizer::Result r;
    for (unsigned char b : text) {
        r.newlines += b == '\n';
        const int8_t v = map[b];
        if (v == Alphabet::kIllegal) r.illegal = true;
        if (v >= 0) out.push_back(static_cast<uint8_t>(v));
    }
    r.codes = out.size();
    return r;
}

}  // namespace

TEST_CASE("every letter-lookup variant reads random text as the serial loop does") {
    const auto variants = test::runnable_variants(letter_digitizer_variants());
    REQUIRE(!variants.empty());
    for (const Alphabet* abc : {&Alphabet::amino(), &Alphabet::dna(), &Alphabet::rna()}) {
        const auto map = reading_map(*abc);
        for (const auto& v : variants) {
            CAPTURE(v.name);
            const LetterDigitizer dig(map, &v);
            for (size_t n = 0; n <= 70; ++n) {
                for (int rep = 0; rep < 20; ++rep) {
                    // Mostly letters of both cases, some line ends and blanks,
                    // now and then any byte at all (illegal ones included).
                    std::string text;
                    for (size_t i = 0; i < n; ++i) {
                        const int kind = test::uniform(0, 99);
                        if (kind < 80) text += static_cast<char>((test::uniform(0, 1) ? 'A' : 'a') + test::uniform(0, 25));
                        else if (kind < 90) text += "\n\r \t"[test::uniform(0, 3)];
                        else text += static_cast<char>(test::uniform(0, 255));
                    }
                    std::vector<uint8_t> want;
                    const auto w = by_hand(map, text, want);
                    std::vector<uint8_t> got(n + 16);
                    const auto g = dig.run(reinterpret_cast<const unsigned char*>(text.data()), n, got.data());
                    CHECK(g.newlines == w.newlines);
                    CHECK(g.illegal == w.illegal);
                    if (!w.illegal) {
                        REQUIRE(g.codes == w.codes);
                        got.resize(g.codes);
                        CHECK(got == want);
                    }
                }
            }
        }
    }
}

TEST_CASE("a map that reads a letter's two cases apart runs the serial loop") {
    auto map = reading_map(Alphabet::amino());
    map['a'] = Alphabet::kIllegal;  // 'A' stays legal
    for (const auto& v : test::runnable_variants(letter_digitizer_variants())) {
        const LetterDigitizer dig(map, &v);
        CHECK(std::string(dig.variant()) == "letters_serial_base");
        const std::string text = "AAAAAAAAAAAAAAAAAAAAa";
        std::vector<uint8_t> out(text.size() + 16);
        CHECK(dig.run(reinterpret_cast<const unsigned char*>(text.data()), text.size(), out.data()).illegal);
    }
}
