// gpu-sw's scalar reference (docs/sw.md §3): the recurrences of
// sw_engine.hpp over one row of int64_t, written to be obviously right. The
// tests hold it to a brute force over every local alignment of short
// sequences, and every other engine to it.
#pragma once

#include <cstdint>
#include <span>

#include "core/sw/sw_engine.hpp"

namespace warpdp {

// The best local alignment score of query against target (codes of
// scoring.matrix); 0 when either is empty.
int64_t sw_reference_score(std::span<const uint8_t> query, std::span<const uint8_t> target, const SwScoring& scoring);

}  // namespace warpdp
