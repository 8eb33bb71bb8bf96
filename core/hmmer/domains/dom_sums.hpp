// Two sums of HMMER's scoring (docs/hmmer-filters.md §16.4): Easel's
// compensated float sum (esl_vec_FSum) and HMMER's table-driven log-sum
// (p7_FLogsum), both reproduced to the bit.
#pragma once

#include <span>

namespace warpdp {

// Kahan-compensated sum in float, in index order.
float easel_fsum(std::span<const float> v) noexcept;

// log(e^a + e^b) as HMMER approximates it: the larger plus a table entry
// log(1 + e^-d) at d truncated to thousandths; the larger alone from d =
// 15.7 on or when the smaller is -inf.
float hmmer_flogsum(float a, float b) noexcept;

}  // namespace warpdp
