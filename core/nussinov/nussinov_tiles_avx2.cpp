// Tile kernels in an AVX2 target region (core/base/simd_variants.hpp says
// why not -mavx2): the same source as nussinov_tiles_base.cpp, 16 int16 or
// 8 int32 lanes a 256-bit register. Entered only when
// cpu_supports(CpuIsa::avx2) (nussinov_cpu.cpp).
#include "core/nussinov/nussinov_tiles_kernels.hpp"

#if defined(__x86_64__)
#include <cstddef>
#include <cstdint>

#include "core/base/avx2_region_begin.hpp"  // (after every other include)

#include "core/nussinov/nussinov_tiles_kernel_impl.hpp"  // (inside: its templates are compiled for AVX2 here)

namespace warpdp::nussinov_tiles {

void tile_i16_avx2(const TileJob& job) { tile<int16_t, 32>(job); }
void tile_i32_avx2(const TileJob& job) { tile<int32_t, 32>(job); }

}  // namespace warpdp::nussinov_tiles

#include "core/base/avx2_region_end.hpp"
#endif  // __x86_64__
