// AVX2 instance of the striped Viterbi kernel: 16 int16 lanes, in an AVX2
// target region (core/base/simd_variants.hpp says why not -mavx2); entered
// only when cpu_supports(CpuIsa::avx2) (vit_cpu.cpp).
#include "core/hmmer/vit/vit_striped_kernels.hpp"

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "core/hmmer/vit/vit_profile.hpp"

#include "core/base/avx2_region_begin.hpp"  // (after every other include)

#include "core/hmmer/vit/vit_striped_kernel_impl.hpp"  // (inside: its template is compiled for AVX2 here)

namespace warpdp::vit_striped {
namespace {

struct Avx2 {
    using V = __m256i;
    static constexpr int W = 16;
    static V set1(int16_t x) { return _mm256_set1_epi16(x); }
    static V load(const int16_t* p) { return _mm256_loadu_si256(reinterpret_cast<const V*>(p)); }
    static void store(int16_t* p, V v) { _mm256_storeu_si256(reinterpret_cast<V*>(p), v); }
    static V adds(V a, V b) { return _mm256_adds_epi16(a, b); }
    static V max(V a, V b) { return _mm256_max_epi16(a, b); }
    // Lane z -> z+1 across the two 128-bit halves; lane 0 becomes -32768.
    static V shift_up(V v) {
        const V lo_up = _mm256_permute2x128_si256(v, v, 0x08);  // [0, v.lo]
        const V s = _mm256_alignr_epi8(v, lo_up, 14);
        return _mm256_or_si256(s, _mm256_setr_epi16(-32768, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    }
    static bool any_gt(V a, V b) { return _mm256_movemask_epi8(_mm256_cmpgt_epi16(a, b)) != 0; }
    static int hmax(V v) {
        __m128i h = _mm_max_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        h = _mm_max_epi16(h, _mm_srli_si128(h, 8));
        h = _mm_max_epi16(h, _mm_srli_si128(h, 4));
        h = _mm_max_epi16(h, _mm_srli_si128(h, 2));
        return static_cast<int16_t>(_mm_extract_epi16(h, 0));
    }
};

}  // namespace

uint32_t score_avx2(const int16_t* trans, const int16_t* emit, int Q, int16_t* rows, const uint8_t* dsq,
                    uint64_t L, int ncj) {
    return score<Avx2>(trans, emit, Q, rows, dsq, L, ncj);
}

}  // namespace warpdp::vit_striped

#include "core/base/avx2_region_end.hpp"
#endif  // __x86_64__
