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

#include "core/base/simd_variants.hpp"

namespace warpdp {

struct LetterDigitizerResult {
    size_t codes = 0;       // codes written to out
    uint64_t newlines = 0;  // '\n' bytes seen
    bool illegal = false;   // some byte maps to "illegal" (codes are then incomplete)
};

// One way of digitising: table = codes of '@' + k (k < 32), map = byte -> code.
struct LetterKernels {
    LetterDigitizerResult (*run)(const int8_t* table, const int8_t* map, const unsigned char* p, size_t n,
                                 uint8_t* out);
    bool needs_case_folding;  // right only for maps that read a letter's two cases alike
};

// The variants, best first (core/base/simd_variants.hpp): letters_pshufb_ssse3,
// letters_serial_base.
SimdVariants<LetterKernels> letter_digitizer_variants();

class LetterDigitizer {
public:
    using Result = LetterDigitizerResult;
    // `map`: byte -> code, negative = ignored (-1) or illegal (-2). Runs
    // the best variant this CPU has (or `variant`, for tests), falling back
    // to the serial one for a map that is not case-insensitive over letters.
    explicit LetterDigitizer(const std::array<int8_t, 256>& map,
                             const SimdVariant<LetterKernels>* variant = nullptr);
    // Digitises p[0, n) into out, which must have room for n codes.
    Result run(const unsigned char* p, size_t n, uint8_t* out) const noexcept;

    // The variant that runs.
    const char* variant() const noexcept { return variant_->name; }

private:
    std::array<int8_t, 256> map_{};
    // Codes of '@' + k for k = 0..31 (the low five bits of a letter's byte).
    alignas(16) std::array<int8_t, 32> table_{};
    const SimdVariant<LetterKernels>* variant_ = nullptr;
};

}  // namespace warpdp
