// LetterDigitizer: SSSE3 pshufb lookup with a run-time CPU check, so the
// library still runs on baseline x86-64 and on other architectures.
#include "core/letter_digitizer.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define WARPDP_LETTERS_X86 1
#endif

namespace warpdp {

LetterDigitizer::LetterDigitizer(const std::array<int8_t, 256>& map) {
    bool folds = true;
    for (int k = 0; k < 32; ++k) {
        const auto upper = static_cast<size_t>('@' + k);
        table_[static_cast<size_t>(k)] = map[upper];
        if (k >= 1 && k <= 26 && map[upper] != map[upper + 32]) folds = false;
    }
#ifdef WARPDP_LETTERS_X86
    enabled_ = folds && __builtin_cpu_supports("ssse3");
#else
    (void)folds;
#endif
}

#ifdef WARPDP_LETTERS_X86
namespace {

// 16 codes for 16 bytes; `ok` gets false when one is not a letter or maps
// to a negative code.
__attribute__((target("ssse3"))) inline __m128i codes16(const unsigned char* p, __m128i lo, __m128i hi,
                                                         bool& ok) {
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i folded = _mm_or_si128(c, _mm_set1_epi8(0x20));
    const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(folded, _mm_set1_epi8('a' - 1)),
                                         _mm_cmplt_epi8(folded, _mm_set1_epi8('z' + 1)));
    const __m128i idx = _mm_and_si128(c, _mm_set1_epi8(0x1F));
    const __m128i from_hi = _mm_cmpgt_epi8(idx, _mm_set1_epi8(15));
    const __m128i code = _mm_or_si128(_mm_andnot_si128(from_hi, _mm_shuffle_epi8(lo, idx)),
                                      _mm_and_si128(from_hi, _mm_shuffle_epi8(hi, idx)));
    ok = ok && _mm_movemask_epi8(letter) == 0xFFFF && _mm_movemask_epi8(code) == 0;
    return code;
}

__attribute__((target("ssse3"))) bool line_ssse3(const int8_t* table, const unsigned char* p, size_t n,
                                                 uint8_t* out) {
    const __m128i lo = _mm_load_si128(reinterpret_cast<const __m128i*>(table));
    const __m128i hi = _mm_load_si128(reinterpret_cast<const __m128i*>(table + 16));
    bool ok = true;
    size_t i = 0;
    for (; i + 16 <= n && ok; i += 16)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), codes16(p + i, lo, hi, ok));
    // The tail as one overlapping block: letters map one to one, so the
    // bytes written twice get the same codes.
    if (ok && i < n)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + n - 16), codes16(p + n - 16, lo, hi, ok));
    return ok;
}

}  // namespace
#endif

bool LetterDigitizer::line(const unsigned char* p, size_t n, uint8_t* out) const noexcept {
#ifdef WARPDP_LETTERS_X86
    if (enabled_ && n >= 16) return line_ssse3(table_.data(), p, n, out);
#else
    (void)p;
    (void)out;
#endif
    (void)n;
    return false;
}

}  // namespace warpdp
