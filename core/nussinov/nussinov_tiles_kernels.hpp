// The boundary between the Nussinov CPU engine (nussinov_cpu.cpp, whose
// variant table holds these entry points) and its tile kernels
// (nussinov_tiles_kernel_impl.hpp, built by nussinov_tiles_base.cpp and, on
// x86-64, nussinov_tiles_avx2.cpp): the table view, one tile's job and one
// pair of entry points (16-bit and 32-bit cells) per instruction set.
#pragma once

#include <cstdint>

namespace warpdp::nussinov_tiles {

// Columns are grouped by this many cells: a row's storage starts at its
// diagonal rounded down to a multiple of it, and tiles are multiples of it
// (docs/nussinov.md §6).
inline constexpr uint32_t kColumnAlign = 16;

// One tile of the upper-triangle table of docs/nussinov.md §6. The table's
// cells are int16_t or int32_t, as the entry point says.
struct TileJob {
    void* cells = nullptr;            // 64-byte aligned
    const uint64_t* row_off = nullptr;  // C(i, j) = cells[row_off[i] + j], j >= i rounded down to kColumnAlign
    const uint8_t* codes = nullptr;   // the padded sequence's engine codes
    const int32_t* weight = nullptr;  // weight[5 * a + b]: the pair's weight, -1 when a and b may not pair
    int64_t min_loop = 1;
    uint32_t tile = 64;               // B, a multiple of kColumnAlign
    uint64_t i0 = 0, j0 = 0;          // the tile's first row and column (i0 <= j0, multiples of B)
    void* scratch = nullptr;          // 64-byte aligned, B * B + B cells
};

// Each fills its tile completely, reading only tiles of lower anti-diagonals
// (and, for a diagonal tile, nothing else). The _avx2 pair runs only where
// cpu_supports(CpuIsa::avx2).
void tile_i16_base(const TileJob& job);
void tile_i32_base(const TileJob& job);
void tile_i16_avx2(const TileJob& job);
void tile_i32_avx2(const TileJob& job);

}  // namespace warpdp::nussinov_tiles
