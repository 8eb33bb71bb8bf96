// The CPU engine of gpu-nussinov (nussinov_cpu.cpp, docs/nussinov.md §6-§7):
// the upper-triangle table filled tile by tile by the kernels of one variant
// from the table below (core/base/simd_variants.hpp), threads over the tiles
// of an anti-diagonal for long sequences and over sequences for short ones;
// its memory plan and its factories.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "core/base/simd_variants.hpp"
#include "core/nussinov/nussinov_engine.hpp"
#include "core/nussinov/nussinov_tiles_kernels.hpp"

namespace warpdp {

// One entry of the table: the tile kernel of one instruction set for
// 16-bit and for 32-bit cells.
struct NussinovCpuKernels {
    void (*tile_i16)(const nussinov_tiles::TileJob& job);
    void (*tile_i32)(const nussinov_tiles::TileJob& job);
};
using NussinovCpuVariant = SimdVariant<NussinovCpuKernels>;

// Best first: nussinov_tiles_avx2 (x86-64 only), nussinov_tiles_base.
std::span<const NussinovCpuVariant> nussinov_cpu_variants();

struct NussinovCpuOptions {
    unsigned threads = 1;        // 0 counts as 1
    uint32_t tile = 0;           // B, a multiple of 16; 0: by length (16, 32 or 64)
    bool force_int32 = false;    // 32-bit cells even where 16 bits hold every score (tests)
    uint64_t long_from = 1024;   // sequences at least this long: threads over tiles, one at a time
    uint64_t memory_bytes = 0;   // what one table may take; 0: nussinov_cpu_memory_budget()
};

// The bytes of the table (and row index) the engine allocates for one
// sequence of n bases under p (docs/nussinov.md §7); `tile` as in the options.
uint64_t nussinov_cpu_table_bytes(uint64_t n, const NussinovParams& p, uint32_t tile = 0);
// 80% of this host's physical memory, or of the room an address-space or
// data limit (ulimit -v, -d) leaves this process, whichever is less.
uint64_t nussinov_cpu_memory_budget();
// The longest sequence whose table fits in `bytes`.
uint64_t nussinov_cpu_max_length(const NussinovParams& p, uint64_t bytes, uint32_t tile = 0);
// Whether the scores of a sequence of n bases fit 16-bit cells (docs/nussinov.md §5).
bool nussinov_fits_int16(uint64_t n, const NussinovParams& p);

// The engine. It runs choose_variant<nussinov_cpu_variants>(), or `v` when
// given (tests, benchmarks; one this CPU lacks throws std::invalid_argument).
// fold() throws ResourceError, naming the longest length that fits, for a
// sequence whose table exceeds the memory budget, and before folding any.
// Every variant, option and thread count gives the same scores and
// structures, those of the reference.
std::unique_ptr<NussinovEngine> make_nussinov_cpu_engine(unsigned threads);
std::unique_ptr<NussinovEngine> make_nussinov_cpu_engine(unsigned threads, const NussinovCpuVariant& v);
std::unique_ptr<NussinovEngine> make_nussinov_cpu_engine(const NussinovCpuOptions& opt, const NussinovCpuVariant& v);

}  // namespace warpdp
