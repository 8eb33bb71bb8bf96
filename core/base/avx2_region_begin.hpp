// Opens the AVX2 region of a per-ISA kernel file: every function defined
// from here to core/base/avx2_region_end.hpp is compiled for AVX2. Include it
// after every other header, so that no inline function shared with other
// translation units is emitted with AVX2 code; call into the region only
// after __builtin_cpu_supports("avx2") said yes. (No include guard: each
// kernel file includes the pair once.)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
