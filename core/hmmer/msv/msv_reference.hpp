// The scalar reference of HMMER 3.3.2's MSV filter, written for clarity:
// the SSV fast path with its floor (docs/hmmer-filters.md §5.3), falling back
// to the full MSV recurrence with the J state (§5.2 there) exactly where HMMER
// does.
#pragma once

#include <cstdint>
#include <span>

#include "core/hmmer/msv/msv_profile.hpp"

namespace warpdp {

// Raw MSV result for one target: xJ (0..255) or kMsvOverflow.
uint16_t msv_reference(const MsvByteProfile& p, std::span<const uint8_t> dsq);

// The two halves, exposed for tests.
uint16_t msv_full_reference(const MsvByteProfile& p, std::span<const uint8_t> dsq);
// SSV: returns kSsvNoResult where HMMER would run the full MSV instead.
inline constexpr uint16_t kSsvNoResult = 0xFFFE;
uint16_t ssv_reference(const MsvByteProfile& p, std::span<const uint8_t> dsq);

}  // namespace warpdp
