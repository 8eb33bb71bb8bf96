// The boundary between the gpu-sw CPU engine's variant table (sw_cpu.cpp)
// and its striped kernels (sw_striped_kernel_impl.hpp, built by
// sw_striped_base.cpp, and by sw_striped_sse2.cpp and sw_striped_avx2.cpp on
// x86-64): plain pointers and
// integers only, so that nothing compiled for AVX2 is shared with the rest
// (core/base/simd_variants.hpp).
#pragma once

#include <cstdint>

namespace warpdp::sw_striped {

// One target against a striped query profile (sw_cpu.hpp's
// SwStripedProfile: profile[code][segment][lane] = the matrix entry of the
// query residue at lane * seg_len + segment against `code`, 0 past the
// query's end). scratch: 3 * seg_len * lanes elements, 64-byte aligned.
//
// The _i16 kernels return the best score with saturating 16-bit lanes:
// a result >= 32767 (kSwInt16Ceiling) means the lanes may have saturated
// and the target must be rescored by an _i32 kernel, whose result is exact.
// One lane of int32 (no 16-bit pass): runs on every CPU.
int32_t striped_i32_base(const int32_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                         int gap_extend, int32_t* scratch);
int32_t striped_i16_sse2(const int16_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                         int gap_extend, int16_t* scratch);
int32_t striped_i32_sse2(const int32_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                         int gap_extend, int32_t* scratch);
int32_t striped_i16_avx2(const int16_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                         int gap_extend, int16_t* scratch);
int32_t striped_i32_avx2(const int32_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                         int gap_extend, int32_t* scratch);

// The same, also giving the end of sw_traceback.hpp's rule: the first
// target position j (then query position i) whose H is the best score.
// scratch: 4 * seg_len * lanes elements. end_i and end_j are left alone when
// the best score is 0; an _i16 result at or above 32767 is not exact.
int32_t striped_end_i32_base(const int32_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                             int gap_extend, int32_t* scratch, uint64_t* end_i, uint64_t* end_j);
int32_t striped_end_i16_sse2(const int16_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                             int gap_extend, int16_t* scratch, uint64_t* end_i, uint64_t* end_j);
int32_t striped_end_i32_sse2(const int32_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                             int gap_extend, int32_t* scratch, uint64_t* end_i, uint64_t* end_j);
int32_t striped_end_i16_avx2(const int16_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                             int gap_extend, int16_t* scratch, uint64_t* end_i, uint64_t* end_j);
int32_t striped_end_i32_avx2(const int32_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                             int gap_extend, int32_t* scratch, uint64_t* end_i, uint64_t* end_j);

}  // namespace warpdp::sw_striped
