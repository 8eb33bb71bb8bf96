// The boundary between the CPU engine's dispatcher and its per-ISA kernels.
// Kept to plain pointers and integers on purpose: the AVX2 kernels live in a
// translation unit compiled with -mavx2, and anything inline shared with it
// (std templates included) could be merged by the linker into SSE2-only code.
#pragma once

#include <cstddef>
#include <cstdint>

namespace warpdp::msvk {

// A read-only view of an MsvStripedProfile (see core/hmmer/msv/msv_cpu.hpp).
struct StripedView {
    const uint8_t* cost;   // [Kp][Q][W] unsigned costs
    const int8_t* score;   // [Kp][Q][W] clamp(bias - cost, -128, 127)
    int Q;
    int bias, tbm, tec;
};

// SSV fast path (spec §5.3): xJ, kMsvOverflow, or kSsvNoResult.
// Full MSV with J (spec §5.2): xJ or kMsvOverflow.
// `row` is scratch of Q*W bytes, aligned to the vector width.
// Whether the kernels of that TU were compiled in (x86-64 only); the others
// are stubs that are never called.
bool sse2_built() noexcept;
bool avx2_built() noexcept;

uint16_t ssv_sse2(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t* row);
uint16_t full_sse2(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t* row);
uint16_t ssv_avx2(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t* row);
uint16_t full_avx2(const StripedView& v, const uint8_t* dsq, size_t L, int tjb, uint8_t* row);

}  // namespace warpdp::msvk
