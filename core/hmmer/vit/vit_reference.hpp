// The scalar reference of HMMER 3.3.2's Viterbi filter (docs/hmmer-filters.md
// §6.2), written for clarity: saturating int16 arithmetic exactly as HMMER's,
// including "x + (-32768)" being x - 32768 for positive x, and the full D->D
// closure on every row (HMMER's lazy-F gives the same score).
#pragma once

#include <cstdint>
#include <span>

#include "core/hmmer/vit/vit_profile.hpp"

namespace warpdp {

// Raw result: xC + 32768 (0..65535), kVitOverflow or kVitNoPath.
uint32_t vit_reference(const VitWordProfile& p, std::span<const uint8_t> dsq);

}  // namespace warpdp
