// gpu-sw's one-pass kernels of group size 8 (sw_instantiations.cuh).
#define WARPDP_SW_UNIT_G 8
#define WARPDP_SW_UNIT_MULTI false
#include "kernels/sw/sw_instantiations.cuh"
