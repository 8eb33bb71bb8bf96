// AVX2 instances of the striped Smith-Waterman kernel: 16 saturating int16
// lanes, and 8 int32 lanes for the targets whose 16-bit result may have
// saturated; in an AVX2 target region (core/base/simd_variants.hpp says why
// not -mavx2), entered only when cpu_supports(CpuIsa::avx2) (sw_cpu.cpp).
#include "core/sw/sw_striped_kernels.hpp"

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "core/base/avx2_region_begin.hpp"  // (after every other include)

#include "core/sw/sw_striped_kernel_impl.hpp"  // (inside: its template is compiled for AVX2 here)

namespace warpdp::sw_striped {
namespace {

// Lane z -> z + 1 across the two 128-bit halves, for B-byte lanes; lane 0
// takes lane 0 of `in`.
template <int B>
__m256i shift_lanes_up(__m256i v, __m256i in) {
    const __m256i lo_up = _mm256_permute2x128_si256(v, v, 0x08);  // [0, v.lo]
    const __m256i s = _mm256_alignr_epi8(v, lo_up, 16 - B);
    const __m256i first = B == 2 ? _mm256_setr_epi16(-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                                 : _mm256_setr_epi32(-1, 0, 0, 0, 0, 0, 0, 0);
    return _mm256_or_si256(s, _mm256_and_si256(in, first));
}

struct Avx2I16 {
    using V = __m256i;
    using T = int16_t;
    static constexpr int W = 16;
    static constexpr T kNegInf = -32768;
    static V set1(T x) { return _mm256_set1_epi16(x); }
    static V load(const T* p) { return _mm256_load_si256(reinterpret_cast<const V*>(p)); }
    static void store(T* p, V v) { _mm256_store_si256(reinterpret_cast<V*>(p), v); }
    static V add(V a, V b) { return _mm256_adds_epi16(a, b); }
    static V sub(V a, V b) { return _mm256_subs_epi16(a, b); }
    static V max(V a, V b) { return _mm256_max_epi16(a, b); }
    static V floor(V a, V) { return a; }  // saturation already stops at -32768
    static V shift_up(V v, V in) { return shift_lanes_up<2>(v, in); }
    static bool any_gt(V a, V b) { return _mm256_movemask_epi8(_mm256_cmpgt_epi16(a, b)) != 0; }
    static int32_t hmax(V v) {
        __m128i h = _mm_max_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        h = _mm_max_epi16(h, _mm_srli_si128(h, 8));
        h = _mm_max_epi16(h, _mm_srli_si128(h, 4));
        h = _mm_max_epi16(h, _mm_srli_si128(h, 2));
        return static_cast<int16_t>(_mm_extract_epi16(h, 0));
    }
};

struct Avx2I32 {
    using V = __m256i;
    using T = int32_t;
    static constexpr int W = 8;
    static constexpr T kNegInf = -(1 << 30);
    static V set1(T x) { return _mm256_set1_epi32(x); }
    static V load(const T* p) { return _mm256_load_si256(reinterpret_cast<const V*>(p)); }
    static void store(T* p, V v) { _mm256_store_si256(reinterpret_cast<V*>(p), v); }
    static V add(V a, V b) { return _mm256_add_epi32(a, b); }
    static V sub(V a, V b) { return _mm256_sub_epi32(a, b); }
    static V max(V a, V b) { return _mm256_max_epi32(a, b); }
    static V floor(V a, V lo) { return _mm256_max_epi32(a, lo); }
    static V shift_up(V v, V in) { return shift_lanes_up<4>(v, in); }
    static bool any_gt(V a, V b) { return _mm256_movemask_epi8(_mm256_cmpgt_epi32(a, b)) != 0; }
    static int32_t hmax(V v) {
        __m128i h = _mm_max_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        h = _mm_max_epi32(h, _mm_srli_si128(h, 8));
        h = _mm_max_epi32(h, _mm_srli_si128(h, 4));
        return _mm_cvtsi128_si32(h);
    }
};

}  // namespace

int32_t striped_i16_avx2(const int16_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                         int gap_extend, int16_t* scratch) {
    return striped<Avx2I16, false>(profile, seg_len, target, n, gap_open, gap_extend, scratch);
}

int32_t striped_i32_avx2(const int32_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                         int gap_extend, int32_t* scratch) {
    return striped<Avx2I32, false>(profile, seg_len, target, n, gap_open, gap_extend, scratch);
}

int32_t striped_end_i16_avx2(const int16_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                             int gap_extend, int16_t* scratch, uint64_t* end_i, uint64_t* end_j) {
    return striped<Avx2I16, true>(profile, seg_len, target, n, gap_open, gap_extend, scratch, end_i, end_j);
}

int32_t striped_end_i32_avx2(const int32_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                             int gap_extend, int32_t* scratch, uint64_t* end_i, uint64_t* end_j) {
    return striped<Avx2I32, true>(profile, seg_len, target, n, gap_open, gap_extend, scratch, end_i, end_j);
}

}  // namespace warpdp::sw_striped

#include "core/base/avx2_region_end.hpp"
#endif  // __x86_64__
