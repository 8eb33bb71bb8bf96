// SSE2 instance of the striped Viterbi kernel: 8 int16 lanes. _mm_adds_epi16
// and _mm_max_epi16 are exactly the saturating int16 semantics of
// docs/hmmer-filters.md §6.2.
#include "core/hmmer/vit/vit_striped_kernels.hpp"

#if defined(__x86_64__)
#include <emmintrin.h>

#include "core/hmmer/vit/vit_striped_kernel_impl.hpp"

namespace warpdp::vit_striped {
namespace {

struct Sse2 {
    using V = __m128i;
    static constexpr int W = 8;
    static V set1(int16_t x) { return _mm_set1_epi16(x); }
    static V load(const int16_t* p) { return _mm_loadu_si128(reinterpret_cast<const V*>(p)); }
    static void store(int16_t* p, V v) { _mm_storeu_si128(reinterpret_cast<V*>(p), v); }
    static V adds(V a, V b) { return _mm_adds_epi16(a, b); }
    static V max(V a, V b) { return _mm_max_epi16(a, b); }
    // Lane z -> z+1; lane 0 becomes -32768.
    static V shift_up(V v) { return _mm_or_si128(_mm_slli_si128(v, 2), _mm_set_epi16(0, 0, 0, 0, 0, 0, 0, -32768)); }
    static bool any_gt(V a, V b) { return _mm_movemask_epi8(_mm_cmpgt_epi16(a, b)) != 0; }
    static int hmax(V v) {
        v = _mm_max_epi16(v, _mm_srli_si128(v, 8));
        v = _mm_max_epi16(v, _mm_srli_si128(v, 4));
        v = _mm_max_epi16(v, _mm_srli_si128(v, 2));
        return static_cast<int16_t>(_mm_extract_epi16(v, 0));
    }
};

}  // namespace

uint32_t score_sse2(const int16_t* trans, const int16_t* emit, int Q, int16_t* rows, const uint8_t* dsq,
                    uint64_t L, int ncj) {
    return score<Sse2>(trans, emit, Q, rows, dsq, L, ncj);
}

}  // namespace warpdp::vit_striped
#endif  // __x86_64__
