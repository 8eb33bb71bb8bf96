// The kernels of one kernels/sw/sw_instantiations_*.cu unit: the entries of
// the table (sw_configs.inc) of group size WARPDP_SW_UNIT_G, each its
// one-pass kernel (WARPDP_SW_UNIT_MULTI false) or its several-pass one.
// Split so, the instances compile in six units side by side rather than in
// one that took five minutes; the table stays the one list of them.
#pragma once

#include "kernels/sw/sw_kernels.cuh"

#if !defined(WARPDP_SW_UNIT_G) || !defined(WARPDP_SW_UNIT_MULTI)
#error "define WARPDP_SW_UNIT_G and WARPDP_SW_UNIT_MULTI before including sw_instantiations.cuh"
#endif

namespace warpdp::cuda {

template <class C, int G, int R, int B, bool Multi, int U>
SwKernelFn SwKernelOf<C, G, R, B, Multi, U, true>::get() {
    return sw_kernel<C, G, R, 128, B, Multi, U>;
}

#define WARPDP_SW_HERE(G, multi) ((G) == WARPDP_SW_UNIT_G && (multi) == WARPDP_SW_UNIT_MULTI)
#define WARPDP_SW16(G, R, B, single_unroll, multi_unroll, single_rate, multi_rate)          \
    template struct SwKernelOf<SwCell16, G, R, B, false, single_unroll, WARPDP_SW_HERE(G, false)>; \
    template struct SwKernelOf<SwCell16, G, R, B, true, multi_unroll, WARPDP_SW_HERE(G, true)>;
#define WARPDP_SW32(G, R, B, single_unroll, multi_unroll)                                        \
    template struct SwKernelOf<SwCell32, G, R, B, false, single_unroll, WARPDP_SW_HERE(G, false)>; \
    template struct SwKernelOf<SwCell32, G, R, B, true, multi_unroll, WARPDP_SW_HERE(G, true)>;
#include "kernels/sw/sw_configs.inc"
#undef WARPDP_SW16
#undef WARPDP_SW32
#undef WARPDP_SW_HERE

}  // namespace warpdp::cuda
