// The scalar steps of the bias filter's scaled Forward (docs/hmmer-filters.md
// §7.1), shared by the reference loop (bias_filter.cpp) and the lane kernel's
// lane starts and ends (bias_lanes_avx2_f32.cpp). Internal linkage on purpose: each
// translation unit gets its own copy, so the AVX2 unit's copy is never linked
// into code that runs on older CPUs.
#pragma once

#include <cmath>

namespace warpdp::bias_step {

// The float HMMER's scaled Forward adds for a row scale factor m.
static inline float log_scale(float m) { return static_cast<float>(std::log(static_cast<double>(m))); }

// Rescales (d0, d1) by their maximum, as HMMER's per-row scaling does, and
// returns the log of that maximum.
static inline float rescale(float& d0, float& d1) {
    float m = 0.0f;
    if (d0 > m) m = d0;
    if (d1 > m) m = d1;
    d0 = d0 / m;
    d1 = d1 / m;
    return log_scale(m);
}

// The first residue (code x): the start distribution (pi0, pi1) = (0.999, 0.001).
static inline float first(const float* odds0, const float* odds1, unsigned x, float& d0, float& d1) {
    d0 = odds0[x] * 0.999f;
    d1 = odds1[x] * 0.001f;
    float F = 0.0f;
    F += rescale(d0, d1);
    return F;
}

// One more residue (code x), with the target's (t00, t01) and the model's (t10, t11).
static inline float next(const float* odds0, const float* odds1, unsigned x, float t00, float t01, float t10,
                         float t11, float& d0, float& d1) {
    float n0 = 0.0f;
    n0 += d0 * t00;
    n0 += d1 * t10;
    n0 *= odds0[x];
    float n1 = 0.0f;
    n1 += d0 * t01;
    n1 += d1 * t11;
    n1 *= odds1[x];
    d0 = n0;
    d1 = n1;
    return rescale(d0, d1);
}

// The end of the sequence: both states may end.
static inline float end(float d0, float d1) {
    float e = 0.0f;
    e += d0 * 1.0f;
    e += d1 * 1.0f;
    return log_scale(e);
}

}  // namespace warpdp::bias_step
