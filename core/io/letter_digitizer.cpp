// LetterDigitizer's variants: an SSSE3 pshufb lookup, and the plain scalar
// loop that runs everywhere (letter_digitizer_variants()).
#include "core/io/letter_digitizer.hpp"

#include <iterator>

#include "core/base/alphabet.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define WARPDP_LETTERS_X86 1
#endif

namespace warpdp {
namespace {

// One byte the slow way; `o` advances over a code.
inline void step(const int8_t* map, unsigned char b, uint8_t*& o, LetterDigitizerResult& r) {
    const int8_t v = map[b];
    *o = static_cast<uint8_t>(v);
    o += v >= 0;
    r.newlines += b == '\n';
    r.illegal |= v == Alphabet::kIllegal;
}

#ifdef WARPDP_LETTERS_X86
__attribute__((target("ssse3"))) LetterDigitizerResult run_ssse3(const int8_t* table, const int8_t* map,
                                                                 const unsigned char* p, size_t n, uint8_t* out) {
    LetterDigitizerResult r;
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

LetterDigitizerResult run_base(const int8_t*, const int8_t* map, const unsigned char* p, size_t n, uint8_t* out) {
    LetterDigitizerResult r;
    uint8_t* o = out;
    for (size_t i = 0; i < n; ++i) step(map, p[i], o, r);
    r.codes = static_cast<size_t>(o - out);
    return r;
}

constexpr SimdVariant<LetterKernels> kVariants[] = {
#ifdef WARPDP_LETTERS_X86
    {"letters_pshufb_ssse3", CpuIsa::ssse3, {run_ssse3, true}},
#endif
    {"letters_serial_base", CpuIsa::base, {run_base, false}},
};

}  // namespace

SimdVariants<LetterKernels> letter_digitizer_variants() { return kVariants; }

LetterDigitizer::LetterDigitizer(const std::array<int8_t, 256>& map, const SimdVariant<LetterKernels>* variant)
    : map_(map) {
    bool folds = true;
    for (int k = 0; k < 32; ++k) {
        const auto upper = static_cast<size_t>('@' + k);
        table_[static_cast<size_t>(k)] = map[upper];
        if (k >= 1 && k <= 26 && map[upper] != map[upper + 32]) folds = false;
    }
    if (variant) require_supported(*variant);
    variant_ = variant ? variant : &choose_variant<letter_digitizer_variants>();
    if (variant_->kernels.needs_case_folding && !folds) variant_ = &kVariants[std::size(kVariants) - 1];
}

LetterDigitizer::Result LetterDigitizer::run(const unsigned char* p, size_t n, uint8_t* out) const noexcept {
    return variant_->kernels.run(table_.data(), map_.data(), p, n, out);
}

}  // namespace warpdp
