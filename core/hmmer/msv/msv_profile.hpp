// The MSV filter's byte profile (HMMER 3.3.2 impl_sse, "biased byteify"),
// shared by the scalar reference, the CPU engine and the CUDA engine.
// All engines compute the same integer: the final J/C register xJ (0..255),
// or kMsvOverflow when a row reaches the saturation ceiling (score +inf).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace warpdp {

struct Profile;

inline constexpr uint16_t kMsvOverflow = 0xFFFF;
inline constexpr int kMsvBase = 190;  // base_b: offset of the byte scores

struct MsvByteProfile {
    int M = 0;            // model length (nodes 1..M)
    int Kp = 29;          // alphabet codes
    uint8_t bias = 0;     // bias_b = roundf(scale_b * max match score)
    uint8_t tbm = 0;      // B->M_k entry cost
    uint8_t tec = 3;      // E->C / E->J cost
    // cost[x * (M + 1) + k] for code x and node k (k = 0 unused, 255);
    // 255 acts as -inf. The byte score of a match is bias - cost.
    std::vector<uint8_t> cost;

    uint8_t cost_at(int x, int k) const noexcept {
        return cost[static_cast<size_t>(x) * static_cast<size_t>(M + 1) + static_cast<size_t>(k)];
    }
};

// tjb_b(L): the per-target N->B / J->B move cost in bytes, ubyte(logf(3/(L+3))).
uint8_t msv_tjb(uint64_t L);

// The byte profile of a configured float profile (docs/hmmer-filters.md §5.1).
MsvByteProfile build_msv_profile(const Profile& prof);

}  // namespace warpdp
