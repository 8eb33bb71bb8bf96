// SSE2 instantiation of the striped MSV kernels: 16 byte lanes, available on
// every x86-64 CPU, so this TU needs no special compiler flags. SSE2 has no
// signed byte max, so SSV uses the unsigned form (add bias, subtract cost).
#include "core/hmmer/msv/msv_striped_kernels.hpp"

#if defined(__x86_64__)
#include <emmintrin.h>

#include "core/hmmer/msv/msv_striped_kernel_impl.hpp"

namespace warpdp::msv_striped {
namespace {

struct Sse2 {
    using V = __m128i;
    static V splat(int b) { return _mm_set1_epi8(static_cast<char>(b)); }
    static V max_u(V a, V b) { return _mm_max_epu8(a, b); }
    static V adds_u(V a, V b) { return _mm_adds_epu8(a, b); }
    static V subs_u(V a, V b) { return _mm_subs_epu8(a, b); }
    // Lane j takes lane j-1; lane 0 takes 0 (node k = 1 has no diagonal).
    static V shift_in_zero(V a) { return _mm_slli_si128(a, 1); }
    static int hmax_u(V a) {
        a = _mm_max_epu8(a, _mm_srli_si128(a, 8));
        a = _mm_max_epu8(a, _mm_srli_si128(a, 4));
        a = _mm_max_epu8(a, _mm_srli_si128(a, 2));
        a = _mm_max_epu8(a, _mm_srli_si128(a, 1));
        return _mm_cvtsi128_si32(a) & 0xFF;
    }
    static bool any_ge_u(V a, int t) {
        return _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(a, splat(t)), a)) != 0;
    }

    // SSV, unsigned form: c in 0..255, floor 0.
    struct Ssv {
        V biasv;
        explicit Ssv(const StripedView& v) : biasv(splat(v.bias)) {}
        V floor() const { return _mm_setzero_si128(); }
        const V* profile(const StripedView& v, uint8_t x) const {
            return reinterpret_cast<const V*>(v.cost) + static_cast<size_t>(x) * v.Q;
        }
        V shift(V a) const { return shift_in_zero(a); }
        V step(V diag, V cost) const { return _mm_subs_epu8(_mm_adds_epu8(diag, biasv), cost); }
        V max(V a, V b) const { return _mm_max_epu8(a, b); }
        bool any_ge(V a, int t) const { return any_ge_u(a, t); }
        int hmax(V a) const { return hmax_u(a); }
    };
};

}  // namespace

uint16_t ssv_sse2(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t* row) {
    return ssv_dispatch<Sse2>(v, dsq, L, tjb, row);
}
uint16_t full_sse2(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t* row) {
    return full_kernel<Sse2>(v, dsq, L, tjb, row);
}

}  // namespace warpdp::msv_striped
#endif  // __x86_64__
