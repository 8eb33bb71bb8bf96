// LetterDigitizer: SSSE3 pshufb lookup chosen at run time (the library
// still runs on baseline x86-64 and elsewhere), and the plain scalar loop.
#include "core/io/letter_digitizer.hpp"

#include "core/base/alphabet.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define WARPDP_LETTERS_X86 1
#endif

namespace warpdp {
namespace {

// One byte the slow way; `o` advances over a code.
inline void step(const int8_t* map, unsigned char b, uint8_t*& o, LetterDigitizer::Result& r) {
    const int8_t v = map[b];
    *o = static_cast<uint8_t>(v);
    o += v >= 0;
    r.newlines += b == '\n';
    r.illegal |= v == Alphabet::kIllegal;
}

#ifdef WARPDP_LETTERS_X86
__attribute__((target("ssse3"))) LetterDigitizer::Result run_ssse3(const int8_t* table, const int8_t* map,
                                                                   const unsigned char* p, size_t n,
                                                                   uint8_t* out) {
    LetterDigitizer::Result r;
    const __m128i lo = _mm_load_si128(reinterpret_cast<const __m128i*>(table));
    const __m128i hi = _mm_load_si128(reinterpret_cast<const __m128i*>(table + 16));
    uint8_t* o = out;
    size_t i = 0;
    while (i + 16 <= n) {
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        const __m128i folded = _mm_or_si128(c, _mm_set1_epi8(0x20));
        const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(folded, _mm_set1_epi8('a' - 1)),
                                             _mm_cmplt_epi8(folded, _mm_set1_epi8('z' + 1)));
        const __m128i idx = _mm_and_si128(c, _mm_set1_epi8(0x1F));
        const __m128i from_hi = _mm_cmpgt_epi8(idx, _mm_set1_epi8(15));
        const __m128i code = _mm_or_si128(_mm_andnot_si128(from_hi, _mm_shuffle_epi8(lo, idx)),
                                          _mm_and_si128(from_hi, _mm_shuffle_epi8(hi, idx)));
        // Store all 16; only the prefix of legal letters is kept (o advances by it).
        _mm_storeu_si128(reinterpret_cast<__m128i*>(o), code);
        const unsigned good = static_cast<unsigned>(_mm_movemask_epi8(letter)) &
                              ~static_cast<unsigned>(_mm_movemask_epi8(code)) & 0xFFFFu;
        if (good == 0xFFFFu) {
            o += 16;
            i += 16;
            continue;
        }
        const auto k = static_cast<size_t>(__builtin_ctz(~good));
        o += k;
        i += k;
        step(map, p[i], o, r);
        ++i;
    }
    for (; i < n; ++i) step(map, p[i], o, r);
    r.codes = static_cast<size_t>(o - out);
    return r;
}
#endif

}  // namespace

LetterDigitizer::LetterDigitizer(const std::array<int8_t, 256>& map) : map_(map) {
    bool folds = true;
    for (int k = 0; k < 32; ++k) {
        const auto upper = static_cast<size_t>('@' + k);
        table_[static_cast<size_t>(k)] = map[upper];
        if (k >= 1 && k <= 26 && map[upper] != map[upper + 32]) folds = false;
    }
#ifdef WARPDP_LETTERS_X86
    simd_ = folds && __builtin_cpu_supports("ssse3");
#else
    (void)folds;
#endif
}

LetterDigitizer::Result LetterDigitizer::run(const unsigned char* p, size_t n, uint8_t* out) const noexcept {
#ifdef WARPDP_LETTERS_X86
    if (simd_) return run_ssse3(table_.data(), map_.data(), p, n, out);
#endif
    Result r;
    uint8_t* o = out;
    for (size_t i = 0; i < n; ++i) step(map_.data(), p[i], o, r);
    r.codes = static_cast<size_t>(o - out);
    return r;
}

}  // namespace warpdp
