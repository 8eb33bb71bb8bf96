// The portable instance of the striped Smith-Waterman kernel: one int32
// "lane" (the striped layout with a single lane is the plain column loop),
// for CPUs without SSE2 and as the base entry every variant table has.
#include "core/sw/sw_striped_kernels.hpp"

#include "core/sw/sw_striped_kernel_impl.hpp"

namespace warpdp::sw_striped {
namespace {

struct ScalarI32 {
    using V = int32_t;
    using T = int32_t;
    static constexpr int W = 1;
    static constexpr T kNegInf = -(1 << 30);
    static V set1(T x) { return x; }
    static V load(const T* p) { return *p; }
    static void store(T* p, V v) { *p = v; }
    static V add(V a, V b) { return a + b; }
    static V sub(V a, V b) { return a - b; }
    static V max(V a, V b) { return a > b ? a : b; }
    static V floor(V a, V lo) { return max(a, lo); }
    static V shift_up(V, V in) { return in; }
    static bool any_gt(V a, V b) { return a > b; }
    static int32_t hmax(V v) { return v; }
};

}  // namespace

int32_t striped_i32_base(const int32_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                         int gap_extend, int32_t* scratch) {
    return striped<ScalarI32, false>(profile, seg_len, target, n, gap_open, gap_extend, scratch);
}

int32_t striped_end_i32_base(const int32_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                             int gap_extend, int32_t* scratch, uint64_t* end_i, uint64_t* end_j) {
    return striped<ScalarI32, true>(profile, seg_len, target, n, gap_open, gap_extend, scratch, end_i, end_j);
}

}  // namespace warpdp::sw_striped
