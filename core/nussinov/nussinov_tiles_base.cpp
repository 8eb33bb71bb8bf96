// Tile kernels for the build's baseline target (SSE2 on x86-64, or any
// other): the Nussinov variant every CPU runs.
#include "core/nussinov/nussinov_tiles_kernels.hpp"

#include "core/nussinov/nussinov_tiles_kernel_impl.hpp"

namespace warpdp::nussinov_tiles {

void tile_i16_base(const TileJob& job) { tile<int16_t, 16>(job); }
void tile_i32_base(const TileJob& job) { tile<int32_t, 16>(job); }

}  // namespace warpdp::nussinov_tiles
