// Forward and Backward of the post-filter stages, scalar references of HMMER
// 3.3.2's impl_sse p7_Forward / p7_ForwardParser / p7_Backward /
// p7_BackwardParser (docs/hmmer-filters.md §16.2): probability space, single
// precision, HMMER's striped lanes and rescaling, every operation in its
// order with denormal results flushed to zero. dom_cpu.hpp has the same
// arithmetic as GCC vectors.
#pragma once

#include <cstdint>
#include <span>

#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_specials.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"

namespace warpdp {

// Fills `mx` (resized here: every row of cells when `full`, else one) with
// the Forward matrix of `dsq`, the codes of a target or of a piece of it;
// `odds` carry the configuration and the length model of the whole target
// (§16.1). Returns the score in nats, -inf for an empty dsq, or NaN where
// HMMER raises its range error (final C odds NaN, 0 or +inf).
float dom_forward(const FwdProfile& p, const DomSpecialOdds& odds, std::span<const uint8_t> dsq, DomMatrix& mx,
                  bool full);

// Fills `bck` (resized here) with the Backward matrix of the same dsq, with
// `fwd`'s scale factors (it may switch to its own, §16.2). Returns the score
// in nats, or NaN where HMMER raises its range error (N odds of row 0 NaN,
// 0 or +inf, or dsq empty).
float dom_backward(const FwdProfile& p, const DomSpecialOdds& odds, std::span<const uint8_t> dsq,
                   const DomMatrix& fwd, DomMatrix& bck, bool full);

}  // namespace warpdp
