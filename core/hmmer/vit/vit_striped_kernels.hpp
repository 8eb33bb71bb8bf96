// The boundary between the Viterbi CPU engine's variant table (vit_cpu.cpp)
// and its per-ISA kernels (vit_striped_sse2_i16.cpp, vit_striped_avx2_i16.cpp; x86-64 only).
// Plain pointers and integers only: the AVX2 file compiles what it defines
// for AVX2, so it shares no inline code with the rest
// (core/base/simd_variants.hpp).
#pragma once

#include <cstdint>

namespace warpdp::vit_striped {

// One target against a striped word profile of Q vectors (vit_cpu.hpp's
// VitStripedProfile: trans [q][slot][lane], emit [code][q][lane], built for
// the kernel's lane count); `rows` is scratch of 3*Q*lanes words. Returns
// vit_reference()'s raw result: xC + 32768, kVitOverflow or kVitNoPath.
uint32_t score_sse2(const int16_t* trans, const int16_t* emit, int Q, int16_t* rows, const uint8_t* dsq,
                    uint64_t L, int ncj);
uint32_t score_avx2(const int16_t* trans, const int16_t* emit, int Q, int16_t* rows, const uint8_t* dsq,
                    uint64_t L, int ncj);

}  // namespace warpdp::vit_striped
