// The Forward filter's odds profile (HMMER 3.3.2 impl_sse fb_conversion,
// docs/hmmer-filters.md §7.2): probability-space parameters in HMMER's 4-lane
// striped order, because the float result of its Forward parser depends on that
// order. Shared by the scalar reference and the engines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace warpdp {

struct Profile;

inline constexpr int kFwdLanes = 4;

// Transition slots of one striped position, in HMMER's order; the first four
// lead into node k (from k-1 or B), the rest leave node k.
enum FwdTrans : int { kFBM = 0, kFMM, kFIM, kFDM, kFMD, kFMI, kFII, kFDD, kFwdNumTrans };

// Striped vectors: Q = max(2, ceil(M/4)); lane z of position q is node
// q + 1 + z*Q. Nodes above M are padding with every parameter 0.
struct FwdProfile {
    int M = 0;
    int Q = 0;
    int Kp = 29;
    // emit[(x * Q + q) * 4 + z]: match emission odds of code x.
    std::vector<float> emit;
    // trans[(q * kFwdNumTrans + slot) * 4 + z].
    std::vector<float> trans;

    const float* e(int x, int q) const noexcept {
        return &emit[(static_cast<size_t>(x) * static_cast<size_t>(Q) + static_cast<size_t>(q)) * kFwdLanes];
    }
    const float* t(int q, FwdTrans s) const noexcept {
        return &trans[(static_cast<size_t>(q) * kFwdNumTrans + static_cast<size_t>(s)) * kFwdLanes];
    }
};

inline int fwd_segments(int M) { return M <= 8 ? 2 : (M - 1) / 4 + 1; }

FwdProfile build_fwd_profile(const Profile& prof);

// hmmsearch runs with the SSE flush-to-zero bit set: a float result below
// the smallest normal becomes 0 (inputs are never denormal here).
inline float flush_denormal(float v) noexcept {
    return (v < 1.17549435e-38f && v > -1.17549435e-38f) ? 0.0f * v : v;
}

// Easel's esl_sse_expf for one lane (Cephes polynomial, not libm), with
// flush-to-zero, bit for bit.
float easel_expf(float x) noexcept;

// The Forward parser's score in nats from what its row loop leaves: the
// rescaling factors xE in row order and the final xC. NaN when HMMER's
// parser raises an error (xC NaN, 0 or +inf): hmmsearch would stop there,
// and a NaN score passes every threshold, so the target reaches it.
float fwd_finish(std::span<const float> scales, float xC, uint64_t L);

}  // namespace warpdp
