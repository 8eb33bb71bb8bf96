// The optimal-accuracy alignment of one envelope (HMMER 3.3.2's
// p7_OptimalAccuracy and p7_OATrace, impl_sse; docs/hmmer-filters.md §16.5):
// from the posterior matrix of the envelope, the path that maximises the
// summed posterior probability of its emitted residues, with HMMER's striped
// float order and its tie-breaking, so that the same alignment comes out.
#pragma once

#include <cstdint>

#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_specials.hpp"
#include "core/hmmer/domains/dom_trace.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"

namespace warpdp {

// Fills `ox` (resized to a full matrix of pp's shape) with optimal-accuracy
// scores from the full posterior matrix `pp` and returns the score of the
// best path: the expected number of correctly aligned residues (oasc). Only
// which transitions of `fp` and specials of `xo` are zero matters.
float dom_optimal_accuracy(const FwdProfile& fp, const DomSpecialOdds& xo, const DomMatrix& pp, DomMatrix& ox);

// The traceback of a filled `ox` into `tr` (cleared first): states S..T,
// each emitted residue with its posterior probability, residue coordinates
// 1..L of `pp` plus `i_offset` (hmmsearch adds the envelope's start - 1 to
// place an envelope's trace on the whole target). tr.domains is left empty.
// Throws InternalError where HMMER's traceback would fail or leave the model
// (a node beyond M), which valid posterior matrices do not produce.
void dom_oa_trace(const FwdProfile& fp, const DomSpecialOdds& xo, const DomMatrix& pp, const DomMatrix& ox,
                  DomTrace& tr, int64_t i_offset = 0);

}  // namespace warpdp
