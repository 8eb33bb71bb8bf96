// AVX2 instantiation of the striped MSV kernels: 32 byte lanes, in an AVX2
// target region (core/base/simd_variants.hpp says why not -mavx2); entered
// only when cpu_supports(CpuIsa::avx2), so neither the build machine nor the
// run machine needs AVX2.
// SSV uses the signed form: one saturating signed add per cell of the
// clamped score, with c stored as c - 128 so the floor is -128.
#include "core/hmmer/msv/msv_striped_kernels.hpp"

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "core/base/avx2_region_begin.hpp"  // (after every other include)

#include "core/hmmer/msv/msv_striped_kernel_impl.hpp"  // (inside: its templates are compiled for AVX2 here)

namespace warpdp::msv_striped {
namespace {

struct Avx2 {
    using V = __m256i;
    static V splat(int b) { return _mm256_set1_epi8(static_cast<char>(b)); }
    static V max_u(V a, V b) { return _mm256_max_epu8(a, b); }
    static V adds_u(V a, V b) { return _mm256_adds_epu8(a, b); }
    static V subs_u(V a, V b) { return _mm256_subs_epu8(a, b); }
    // Lane j takes lane j-1 across the 128-bit halves; lane 0 takes 0.
    static V shift_in_zero(V a) {
        return _mm256_alignr_epi8(a, _mm256_permute2x128_si256(a, a, 0x08), 15);
    }
    static int hmax_u(V a) {
        __m128i h = _mm_max_epu8(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
        h = _mm_max_epu8(h, _mm_srli_si128(h, 8));
        h = _mm_max_epu8(h, _mm_srli_si128(h, 4));
        h = _mm_max_epu8(h, _mm_srli_si128(h, 2));
        h = _mm_max_epu8(h, _mm_srli_si128(h, 1));
        return _mm_cvtsi128_si32(h) & 0xFF;
    }
    static bool any_ge_u(V a, int t) {
        return _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(a, splat(t)), a)) != 0;
    }

    // SSV, signed form: s = c - 128 in -128..127, floor -128.
    struct Ssv {
        V lane0;  // -128 in lane 0 only, the value shifted in for node 1
        explicit Ssv(const StripedView&) : lane0(_mm256_setr_epi8(-128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) {}
        V floor() const { return splat(-128); }
        const V* profile(const StripedView& v, uint8_t x) const {
            return reinterpret_cast<const V*>(v.score) + static_cast<size_t>(x) * v.Q;
        }
        V shift(V a) const { return _mm256_or_si256(shift_in_zero(a), lane0); }
        V step(V diag, V score) const { return _mm256_adds_epi8(diag, score); }
        V max(V a, V b) const { return _mm256_max_epi8(a, b); }
        // c >= t  <=>  s > t - 129; t is in 1..127 here.
        bool any_ge(V a, int t) const { return _mm256_movemask_epi8(_mm256_cmpgt_epi8(a, splat(t - 129))) != 0; }
        int hmax(V a) const { return hmax_u(_mm256_xor_si256(a, splat(-128))); }
    };
};

}  // namespace

uint16_t ssv_avx2(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t* row) {
    return ssv_dispatch<Avx2>(v, dsq, L, tjb, row);
}
uint16_t full_avx2(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t* row) {
    return full_kernel<Avx2>(v, dsq, L, tjb, row);
}

}  // namespace warpdp::msv_striped

#include "core/base/avx2_region_end.hpp"
#endif  // __x86_64__
