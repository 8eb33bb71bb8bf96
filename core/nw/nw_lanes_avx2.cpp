// Lane kernels in an AVX2 target region (core/base/simd_variants.hpp says
// why not -mavx2): the same source as nw_lanes_base.cpp, its 16-bit and
// double lanes in 256-bit registers. Entered only when
// cpu_supports(CpuIsa::avx2) (nw_cpu.cpp).
#include "core/nw/nw_lanes_kernels.hpp"

#if defined(__x86_64__)
#include <cstdint>
#include <vector>

#include "core/base/avx2_region_begin.hpp"  // (after every other include)

#include "core/nw/nw_lanes_kernel_impl.hpp"  // (inside: its templates are compiled for AVX2 here)

namespace warpdp::nw_lanes {

void ndist_avx2(const Group& g, Scratch& s, double* out) { ndist<kNdistLanes>(g, s, out); }
void seqdist_avx2(const Group& g, const SeqDistTable& t, Scratch& s, double* out) {
    seqdist<kSeqdistLanes>(g, t, s, out);
}

}  // namespace warpdp::nw_lanes

#include "core/base/avx2_region_end.hpp"
#endif  // __x86_64__
