// Four float lanes for the scalar references of the post-filter stages: each
// 4-lane SSE operation of HMMER's code becomes four float operations whose
// denormal results are flushed to zero, as in hmmsearch's FTZ mode
// (docs/hmmer-filters.md §16.2). Shared by dom_fwdback, dom_decoding and dom_null2.
#pragma once

#include <array>

#include "core/hmmer/fwd/fwd_profile.hpp"

namespace warpdp::dom_lanes {

using Lanes = std::array<float, kFwdLanes>;

inline float mul(float a, float b) noexcept { return flush_denormal(a * b); }
inline float add(float a, float b) noexcept { return flush_denormal(a + b); }
inline float div(float a, float b) noexcept { return flush_denormal(a / b); }
// fl(1 / v) with the division in double, as HMMER's `1.0 / v` stored in a
// float (the conversion flushes too).
inline float recip_dbl(float v) noexcept { return flush_denormal(static_cast<float>(1.0 / static_cast<double>(v))); }

inline Lanes load(const float* p) noexcept { return {p[0], p[1], p[2], p[3]}; }
inline void store(float* p, const Lanes& a) noexcept {
    for (int z = 0; z < kFwdLanes; ++z) p[z] = a[z];
}
inline Lanes splat(float v) noexcept { return {v, v, v, v}; }
inline Lanes mul(const Lanes& a, const float* b) noexcept {
    return {mul(a[0], b[0]), mul(a[1], b[1]), mul(a[2], b[2]), mul(a[3], b[3])};
}
inline Lanes mul(const Lanes& a, const Lanes& b) noexcept { return mul(a, b.data()); }
inline Lanes add(const Lanes& a, const Lanes& b) noexcept {
    return {add(a[0], b[0]), add(a[1], b[1]), add(a[2], b[2]), add(a[3], b[3])};
}
// Lane z takes lane z-1, lane 0 takes 0 (a right shift in HMMER's terms).
inline Lanes shift_up(const Lanes& a) noexcept { return {0.0f, a[0], a[1], a[2]}; }
// Lane z takes lane z+1, lane 3 takes 0 (HMMER's left shift by move_ss + shuffle).
inline Lanes shift_down(const Lanes& a) noexcept { return {a[1], a[2], a[3], 0.0f}; }
// The horizontal sum of HMMER's two shuffles: (a0 + a1) + (a2 + a3).
inline float hsum(const Lanes& a) noexcept { return add(add(a[0], a[1]), add(a[2], a[3])); }

}  // namespace warpdp::dom_lanes
