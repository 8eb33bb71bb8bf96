// SSE2 instances of the striped Smith-Waterman kernel: 8 saturating int16
// lanes, and 4 int32 lanes for the targets whose 16-bit result may have
// saturated. SSE2 has no 32-bit max, so it is a compare and a select.
#include "core/sw/sw_striped_kernels.hpp"

#if defined(__x86_64__)
#include <emmintrin.h>

#include "core/sw/sw_striped_kernel_impl.hpp"

namespace warpdp::sw_striped {
namespace {

struct Sse2I16 {
    using V = __m128i;
    using T = int16_t;
    static constexpr int W = 8;
    static constexpr T kNegInf = -32768;
    static V set1(T x) { return _mm_set1_epi16(x); }
    static V load(const T* p) { return _mm_load_si128(reinterpret_cast<const V*>(p)); }
    static void store(T* p, V v) { _mm_store_si128(reinterpret_cast<V*>(p), v); }
    static V add(V a, V b) { return _mm_adds_epi16(a, b); }
    static V sub(V a, V b) { return _mm_subs_epi16(a, b); }
    static V max(V a, V b) { return _mm_max_epi16(a, b); }
    static V floor(V a, V) { return a; }  // saturation already stops at -32768
    // Lane z -> z + 1; lane 0 takes lane 0 of `in`.
    static V shift_up(V v, V in) {
        return _mm_or_si128(_mm_slli_si128(v, 2), _mm_and_si128(in, _mm_set_epi16(0, 0, 0, 0, 0, 0, 0, -1)));
    }
    static bool any_gt(V a, V b) { return _mm_movemask_epi8(_mm_cmpgt_epi16(a, b)) != 0; }
    static int32_t hmax(V v) {
        v = _mm_max_epi16(v, _mm_srli_si128(v, 8));
        v = _mm_max_epi16(v, _mm_srli_si128(v, 4));
        v = _mm_max_epi16(v, _mm_srli_si128(v, 2));
        return static_cast<int16_t>(_mm_extract_epi16(v, 0));
    }
};

struct Sse2I32 {
    using V = __m128i;
    using T = int32_t;
    static constexpr int W = 4;
    static constexpr T kNegInf = -(1 << 30);
    static V set1(T x) { return _mm_set1_epi32(x); }
    static V load(const T* p) { return _mm_load_si128(reinterpret_cast<const V*>(p)); }
    static void store(T* p, V v) { _mm_store_si128(reinterpret_cast<V*>(p), v); }
    static V add(V a, V b) { return _mm_add_epi32(a, b); }
    static V sub(V a, V b) { return _mm_sub_epi32(a, b); }
    static V max(V a, V b) {
        const V gt = _mm_cmpgt_epi32(a, b);
        return _mm_or_si128(_mm_and_si128(gt, a), _mm_andnot_si128(gt, b));
    }
    static V floor(V a, V lo) { return max(a, lo); }
    static V shift_up(V v, V in) {
        return _mm_or_si128(_mm_slli_si128(v, 4), _mm_and_si128(in, _mm_set_epi32(0, 0, 0, -1)));
    }
    static bool any_gt(V a, V b) { return _mm_movemask_epi8(_mm_cmpgt_epi32(a, b)) != 0; }
    static int32_t hmax(V v) {
        v = max(v, _mm_srli_si128(v, 8));
        v = max(v, _mm_srli_si128(v, 4));
        return _mm_cvtsi128_si32(v);
    }
};

}  // namespace

int32_t striped_i16_sse2(const int16_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                         int gap_extend, int16_t* scratch) {
    return striped<Sse2I16, false>(profile, seg_len, target, n, gap_open, gap_extend, scratch);
}

int32_t striped_i32_sse2(const int32_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                         int gap_extend, int32_t* scratch) {
    return striped<Sse2I32, false>(profile, seg_len, target, n, gap_open, gap_extend, scratch);
}

int32_t striped_end_i16_sse2(const int16_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                             int gap_extend, int16_t* scratch, uint64_t* end_i, uint64_t* end_j) {
    return striped<Sse2I16, true>(profile, seg_len, target, n, gap_open, gap_extend, scratch, end_i, end_j);
}

int32_t striped_end_i32_sse2(const int32_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                             int gap_extend, int32_t* scratch, uint64_t* end_i, uint64_t* end_j) {
    return striped<Sse2I32, true>(profile, seg_len, target, n, gap_open, gap_extend, scratch, end_i, end_j);
}

}  // namespace warpdp::sw_striped
#endif  // __x86_64__
