// HMMER's fixed-point scales and the two float->byte conversions of the MSV
// byte profile (p7_oprofile.c), written once so every engine and the profile
// builder agree bit for bit. Compiled without FMA contraction.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "core/base/errors.hpp"

namespace warpdp::hmmer {

inline constexpr double kLn2 = 0.69314718055994529;   // eslCONST_LOG2
inline const float kScaleB = static_cast<float>(3.0 / kLn2);    // third-bits
inline const float kScaleW = static_cast<float>(500.0 / kLn2);  // 1/500 bits

// ubyte(): unbiased score -> byte cost, clamped at 255. Its scores are logs
// of probabilities (<= 0, -inf saturating); a positive one or NaN has no
// byte, and HMMER's cast of it is undefined, so it is refused as a bug.
inline uint8_t unbiased_byte(float sc) {
    const float c = -1.0f * std::roundf(kScaleB * sc);
    if (!(c >= 0.0f)) throw InternalError("unbiased_byte: score " + std::to_string(sc) + " is not a cost");
    return c > 255.0f ? uint8_t{255} : static_cast<uint8_t>(static_cast<int>(c));
}

// bbyte(): biased emission cost, = min(255, bias - roundf(scale*sc)). The
// bias is the largest score's cost, so every score of the model gives a
// byte; NaN (or a score above the bias) is refused as a bug, as above.
inline uint8_t biased_byte(float sc, uint8_t bias) {
    const float c = -1.0f * std::roundf(kScaleB * sc);
    if (!(c >= -static_cast<float>(bias)))
        throw InternalError("biased_byte: score " + std::to_string(sc) + " is above the bias");
    return c > static_cast<float>(255 - bias) ? uint8_t{255}
                                              : static_cast<uint8_t>(static_cast<int>(c) + bias);
}

}  // namespace warpdp::hmmer
