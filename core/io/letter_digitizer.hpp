// The inner loop of FASTA/FASTQ reading: bytes -> residue codes, with
// newlines, blanks and CR dropped. Sequence text is nearly all letters, so
// it goes 16 bytes at a time through a byte-shuffle table lookup, and only
// the bytes that are not legal letters (line ends, '*', '.', illegal bytes)
// take the scalar step. This file never decides what is legal: it copies
// the alphabet's map; the parser turns the "illegal" flag into the error.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace warpdp {

class LetterDigitizer {
public:
    // `map`: byte -> code, negative = ignored (-1) or illegal (-2). The SIMD
    // path turns itself off when the CPU lacks SSSE3 or when the map is not
    // case-insensitive over letters.
    explicit LetterDigitizer(const std::array<int8_t, 256>& map);

    struct Result {
        size_t codes = 0;       // codes written to out
        uint64_t newlines = 0;  // '\n' bytes seen
        bool illegal = false;   // some byte maps to "illegal" (codes are then incomplete)
    };
    // Digitises p[0, n) into out, which must have room for n codes.
    Result run(const unsigned char* p, size_t n, uint8_t* out) const noexcept;

    bool simd() const noexcept { return simd_; }

private:
    std::array<int8_t, 256> map_{};
    // Codes of '@' + k for k = 0..31 (the low five bits of a letter's byte).
    alignas(16) std::array<int8_t, 32> table_{};
    bool simd_ = false;
};

}  // namespace warpdp
