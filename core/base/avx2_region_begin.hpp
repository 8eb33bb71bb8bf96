// Opens the AVX2 region of a per-ISA kernel file (<kernel>_avx2*.cpp): every
// function defined from here to core/base/avx2_region_end.hpp is compiled
// for AVX2. Include it after every other header, so that no inline function
// shared with other translation units is emitted with AVX2 code, and define
// in the region nothing the linker could share (anonymous namespace, but
// for the file's _avx2 entry points); call into the region only when
// cpu_supports(CpuIsa::avx2). core/base/simd_variants.hpp says why this and
// not -mavx2. (No include guard: each kernel file includes the pair once.)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
