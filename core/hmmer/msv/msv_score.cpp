// MSV nats/bits conversion, operation order as in docs/hmmer-filters.md
// §5.2 and §5.4 (float steps, one double subtraction of the 3-nat loop
// approximation).
#include "core/hmmer/msv/msv_score.hpp"

#include <limits>

#include "core/hmmer/hmmer_units.hpp"
#include "core/hmmer/msv/msv_profile.hpp"

namespace warpdp {

float msv_nats(uint16_t raw, uint64_t L) {
    if (raw == kMsvOverflow) return std::numeric_limits<float>::infinity();
    const int tjb = msv_tjb(L);
    const float unbiased = static_cast<float>(static_cast<int>(raw) - tjb) - static_cast<float>(kMsvBase);
    const float scaled = unbiased / hmmer::kScaleB;
    return static_cast<float>(static_cast<double>(scaled) - 3.0);
}

float score_bits(float usc, float nullsc) {
    const float d = usc - nullsc;
    return static_cast<float>(static_cast<double>(d) / hmmer::kLn2);
}

}  // namespace warpdp
