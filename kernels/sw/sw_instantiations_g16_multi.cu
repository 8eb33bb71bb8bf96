// gpu-sw's several-pass kernels of group size 16 (sw_instantiations.cuh).
#define WARPDP_SW_UNIT_G 16
#define WARPDP_SW_UNIT_MULTI true
#include "kernels/sw/sw_instantiations.cuh"
