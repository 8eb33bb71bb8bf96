// From the MSV filter's integer result to nats and bits (docs/hmmer-filters.md
// §5.2, §5.4): the float/double tail every engine's raw xJ goes through on the
// host.
#pragma once

#include <cstdint>

namespace warpdp {

// MSV score in nats of raw result `raw` (xJ, or kMsvOverflow -> +inf) for a
// target of length L.
float msv_nats(uint16_t raw, uint64_t L);

// Bit score of a nat score against a null (or bias-filter) score:
// f32((double)f32(usc - nullsc) / ln2).
float score_bits(float usc, float nullsc);

}  // namespace warpdp
