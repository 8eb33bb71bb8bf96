// The null2 model of an envelope (HMMER 3.3.2 impl_sse p7_Null2_ByExpectation
// and p7_Null2_ByTrace, docs/hmmer-filters.md §16.2): the odds ratio
// f'(x) / f(x) of a composition made of the emissions the envelope's paths
// use, for every code x, in HMMER's float order. The bias correction of a
// domain is the sum of log null2 over its residues.
#pragma once

#include <span>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_trace.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"

namespace warpdp {

// From the posterior matrix of an envelope (dom_decoding, L >= 1): each M
// and I cell, and N, J, C, weighted by its mean posterior over the rows.
// Returns Kp values: canonical codes from the emissions, each degenerate
// code the mean of its members' values, gap, '*' and '~' 1.
std::vector<float> dom_null2_by_expectation(const FwdProfile& p, const Alphabet& abc, const DomMatrix& pp);

// From the steps zstart..zend of a sampled trace (one domain, B to E): the
// same with the states the trace visits counted instead of posteriors. As
// in HMMER, an insert at node k is counted as a use of match state k.
std::vector<float> dom_null2_by_trace(const FwdProfile& p, const Alphabet& abc, const DomTrace& tr, int zstart,
                                      int zend);

// The codes after the K canonical ones, from null2[0..K-1]: each
// degenerate code the float mean of its members' values (in code order),
// gap, '*' and '~' 1. null2 holds Kp values.
void dom_null2_non_canonical(const Alphabet& abc, std::span<float> null2);

}  // namespace warpdp
