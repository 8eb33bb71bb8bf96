// HMMER's fixed-point scales and the two float->byte conversions of the MSV
// byte profile (p7_oprofile.c), written once so every engine and the profile
// builder agree bit for bit. Compiled without FMA contraction.
#pragma once

#include <cmath>
#include <cstdint>

namespace warpdp::hmmer {

inline constexpr double kLn2 = 0.69314718055994529;   // eslCONST_LOG2
inline const float kScaleB = static_cast<float>(3.0 / kLn2);    // third-bits
inline const float kScaleW = static_cast<float>(500.0 / kLn2);  // 1/500 bits

// ubyte(): unbiased score -> byte cost, clamped at 255.
inline uint8_t unbiased_byte(float sc) {
    const float c = -1.0f * std::roundf(kScaleB * sc);
    return c > 255.0f ? uint8_t{255} : static_cast<uint8_t>(static_cast<int>(c));
}

// bbyte(): biased emission cost, = min(255, bias - roundf(scale*sc)).
inline uint8_t biased_byte(float sc, uint8_t bias) {
    const float c = -1.0f * std::roundf(kScaleB * sc);
    return c > static_cast<float>(255 - bias) ? uint8_t{255}
                                              : static_cast<uint8_t>(static_cast<int>(c) + bias);
}

}  // namespace warpdp::hmmer
