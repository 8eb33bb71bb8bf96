// Closes the region core/base/avx2_region_begin.hpp opened.
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
