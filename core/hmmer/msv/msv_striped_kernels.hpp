// The boundary between the CPU engine's variant table (msv_cpu.cpp) and its
// per-ISA kernels (msv_striped_sse2_u8.cpp, msv_striped_avx2_u8.cpp; x86-64 only). Kept to
// plain pointers and integers on purpose: the AVX2 file compiles what it
// defines for AVX2, so it shares no inline code with the rest
// (core/base/simd_variants.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace warpdp::msv_striped {

// A read-only view of an MsvStripedProfile (see core/hmmer/msv/msv_cpu.hpp).
struct StripedView {
    const uint8_t* cost;   // [Kp][Q][W] unsigned costs
    const int8_t* score;   // [Kp][Q][W] clamp(bias - cost, -128, 127)
    int Q;
    int bias, tbm, tec;
};

// SSV fast path (docs/hmmer-filters.md §5.3): xJ, kMsvOverflow, or kSsvNoResult.
// Full MSV with J (docs/hmmer-filters.md §5.2): xJ or kMsvOverflow.
// `row` is scratch of Q*W bytes, aligned to the vector width.
uint16_t ssv_sse2(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t* row);
uint16_t full_sse2(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t* row);
uint16_t ssv_avx2(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t* row);
uint16_t full_avx2(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t* row);

}  // namespace warpdp::msv_striped
