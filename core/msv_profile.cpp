// Per-target parts of the MSV byte profile.
#include "core/msv_profile.hpp"

#include <cmath>

#include "core/hmmer_units.hpp"

namespace warpdp {

uint8_t msv_tjb(uint64_t L) {
    return hmmer::unbiased_byte(std::log(3.0f / static_cast<float>(L + 3)));
}

}  // namespace warpdp
