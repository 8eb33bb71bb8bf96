// The boundary between BiasFilter and its lane kernel, which runs the bias
// filter's scaled Forward for eight targets at once (one per AVX2 lane), each
// lane doing exactly the float and double operations of the scalar loop in
// bias_filter.cpp, so the scores are the same bit for bit. Plain pointers
// only: the kernel's translation unit is compiled for AVX2 and must share no
// inline function with code that runs on older CPUs.
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

// Whether the AVX2 kernel was compiled in (x86-64 only); call it only when
// the CPU has AVX2 too.
bool avx2_built() noexcept;

// For each target i (seqs[i], lens[i] >= 1 residues, p1s[i] its length
// model's p1): the log-scaled Forward sum of bias_filter.cpp's loop,
// including its end term, in out[i].
void forward_avx2(const Model& m, const uint8_t* const* seqs, const uint64_t* lens, const float* p1s, size_t n,
                  float* out);

// The kernel's logarithm, out[i] = (float)log((double)in[i]) exactly as the
// scalar expression gives it, for any float (tests check it against std::log).
void log_avx2(const float* in, size_t n, float* out);

}  // namespace warpdp::bias_lanes
