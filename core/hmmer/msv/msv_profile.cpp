// The MSV byte profile: built once per model from the float profile, plus
// the per-target N/J->B cost.
#include "core/hmmer/msv/msv_profile.hpp"

#include <algorithm>
#include <cmath>

#include "core/hmmer/hmmer_units.hpp"
#include "core/hmmer/profile.hpp"

namespace warpdp {

uint8_t msv_tjb(uint64_t L) {
    return hmmer::unbiased_byte(std::log(3.0f / static_cast<float>(L + 3)));
}

MsvByteProfile build_msv_profile(const Profile& prof) {
    MsvByteProfile b;
    b.M = prof.M;
    b.Kp = prof.Kp;
    // The bias is the largest emission score, floored at 0 because HMMER's
    // scan includes the insert scores, which are 0.
    float mx = 0.0f;
    for (int k = 1; k <= prof.M; ++k)
        for (int x = 0; x < prof.K; ++x) mx = std::max(mx, prof.match_score(k, x));
    b.bias = hmmer::unbiased_byte(-mx);
    const float M = static_cast<float>(prof.M);
    const float M1 = static_cast<float>(prof.M + 1);
    b.tbm = hmmer::unbiased_byte(std::log(2.0f / (M * M1)));
    b.tec = hmmer::unbiased_byte(std::log(0.5f));
    const size_t row = static_cast<size_t>(prof.M) + 1;
    b.cost.assign(static_cast<size_t>(prof.Kp) * row, uint8_t{255});
    for (int x = 0; x < prof.Kp; ++x)
        for (int k = 1; k <= prof.M; ++k)
            b.cost[static_cast<size_t>(x) * row + static_cast<size_t>(k)] = hmmer::biased_byte(prof.match_score(k, x), b.bias);
    return b;
}

}  // namespace warpdp
