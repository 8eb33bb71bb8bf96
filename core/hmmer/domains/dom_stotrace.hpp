// HMMER's stochastic traceback (impl_sse p7_StochasticTrace,
// docs/hmmer-filters.md §16.3): samples one state path from a full Forward
// matrix in proportion to its probability, with the float products, the
// normalizations and the order of random draws of HMMER's SSE code, so that
// a seeded stream of samples is hmmsearch's.
#pragma once

#include "core/base/easel_random.hpp"
#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_specials.hpp"
#include "core/hmmer/domains/dom_trace.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"

namespace warpdp {

// fwd: a full Forward matrix of prof over a target (or region) of fwd.L()
// residues, filled with the special odds `odds`. tr is replaced by the
// sampled path S N.. B .. E (J.. B .. E) C.. T, not yet indexed.
// InternalError when the matrix admits no path (a zero or NaN row).
void dom_stochastic_trace(EaselRandom& rng, const FwdProfile& prof, const DomSpecialOdds& odds,
                          const DomMatrix& fwd, DomTrace& tr);

}  // namespace warpdp
