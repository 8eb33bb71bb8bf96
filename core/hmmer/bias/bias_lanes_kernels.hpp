// The boundary between BiasFilter's variant table (bias_filter.cpp) and its
// lane kernel (bias_lanes_avx2_f32.cpp, x86-64 only), which runs the bias
// filter's scaled Forward for eight targets at once (one per AVX2 lane), each
// lane doing exactly the float and double operations of the scalar loop in
// bias_filter.cpp, so the scores are the same bit for bit. Plain pointers
// only: the kernel's file compiles what it defines for AVX2, so it shares no
// inline code with the rest (core/base/simd_variants.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace warpdp::bias_lanes {

struct Model {
    const float* odds0;  // [Kp] background state's odds per code
    const float* odds1;  // [Kp] composition state's
    int Kp;              // codes, at most kMaxCodes
    float t10, t11;      // composition state: leave / stay
};

// The kernel looks the odds up in registers.
constexpr int kMaxCodes = 32;

// For each target i (seqs[i], lens[i] >= 1 residues, p1s[i] its length
// model's p1): the log-scaled Forward sum of bias_filter.cpp's loop,
// including its end term, in out[i]. The _avx2 functions run only where
// cpu_supports(CpuIsa::avx2), and m.Kp must be at most kMaxCodes.
void forward_avx2(const Model& m, const uint8_t* const* seqs, const uint64_t* lens, const float* p1s, size_t n,
                  float* out);

// The kernel's logarithm, out[i] = (float)log((double)in[i]) exactly as the
// scalar expression gives it, for any float (tests check it against std::log).
void log_avx2(const float* in, size_t n, float* out);

}  // namespace warpdp::bias_lanes
