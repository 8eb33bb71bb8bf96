// An unquantised MSV in float log space: the same model as the byte filter
// (uniform local entry, match-only hits, E->J/C, free N/C/J loops, N/J->B
// and C->T moves at log(3/(L+3))) without the byte rounding or floors. It
// checks the byte filter's arithmetic (test_msv_values) and is itself
// checked by enumerating every MSV path (test_msv_bruteforce).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace warpdp {

struct MsvByteProfile;
struct Profile;

// Scores of the MSV model, in any additive unit (nats, or third-bits for a
// copy rounded like the byte profile). -inf marks an impossible emission.
struct MsvFloatModel {
    int M = 0;
    int Kp = 29;
    float tbm = 0;         // B->M_k, the same for every k
    float tec = 0;         // E->C, E->J
    std::vector<float> s;  // s[k * Kp + x], k = 1..M

    float score(int k, int x) const noexcept { return s[static_cast<size_t>(k) * static_cast<size_t>(Kp) + static_cast<size_t>(x)]; }
};

// The float model in nats: emissions of `prof`, tbm = log(2/(M(M+1))), tec = log(1/2).
MsvFloatModel msv_float_model(const Profile& prof);
// The byte profile read back as scores in third-bits (bias - cost; cost 255
// is -inf): the float MSV of this model reproduces the byte filter exactly.
MsvFloatModel msv_float_model(const MsvByteProfile& bp);

struct MsvFloatResult {
    float xc = 0;   // best score reaching C (sum over hits incl. N/J->B moves), -inf if none
    float xe = 0;   // best E score over all rows (for overflow checks)
};

// Max over all MSV paths; `tjb` is the N/J->B move score for this target.
MsvFloatResult msv_float(const MsvFloatModel& m, std::span<const uint8_t> dsq, float tjb);

// The MSV score in nats as HMMER defines it: xc + tjb(C->T) - 3 nats.
float msv_float_nats(const MsvFloatModel& m, std::span<const uint8_t> dsq);

}  // namespace warpdp
