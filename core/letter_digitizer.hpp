// The fast path of FASTA digitisation: a line made only of letters (what
// nearly every sequence line is) is digitised 16 bytes at a time with a
// byte-shuffle table lookup. Anything else (blanks, '*', '.', illegal bytes)
// is left to the scalar path, which also produces the error messages, so
// this file never decides what is legal: it only copies the alphabet's map.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace warpdp {

class LetterDigitizer {
public:
    // `map` is the byte -> code map (negative = ignored/illegal). The fast
    // path turns itself off when the CPU lacks SSSE3 or when the map is not
    // case-insensitive over letters.
    explicit LetterDigitizer(const std::array<int8_t, 256>& map);

    // When n >= 16 and every byte of p[0, n) is a letter with a legal code,
    // writes the n codes to out and returns true. Otherwise returns false;
    // out[0, n) may then have been written.
    bool line(const unsigned char* p, size_t n, uint8_t* out) const noexcept;

    bool enabled() const noexcept { return enabled_; }

private:
    // Codes of '@' + k for k = 0..31 (the low five bits of a letter's byte).
    alignas(16) std::array<int8_t, 32> table_{};
    bool enabled_ = false;
};

}  // namespace warpdp
