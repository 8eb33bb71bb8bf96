// The optimized CPU forms of the post-filter Forward, Backward, posterior
// decoding and optimal-accuracy fill: the arithmetic of dom_fwdback.hpp,
// dom_decoding.hpp and dom_optacc.hpp, operation for operation, on GCC
// 4 x float vectors (SSE on x86-64) with the FPU's flush-to-zero mode on for
// the call, so every result equals the scalar reference's bit for bit
// (docs/hmmer-filters.md §16.2). Four lanes exactly, as HMMER's sums depend
// on them (core/hmmer/fwd/fwd_cpu.hpp says why).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/base/alphabet.hpp"

#include "core/hmmer/domains/dom_decoding.hpp"
#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_specials.hpp"
#include "core/hmmer/domains/dom_trace.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"

namespace warpdp {

float dom_forward_cpu(const FwdProfile& p, const DomSpecialOdds& odds, std::span<const uint8_t> dsq, DomMatrix& mx,
                      bool full);
float dom_backward_cpu(const FwdProfile& p, const DomSpecialOdds& odds, std::span<const uint8_t> dsq,
                       const DomMatrix& fwd, DomMatrix& bck, bool full);
DomDecodeStatus dom_decoding_cpu(const DomSpecialOdds& odds, const DomMatrix& fwd, const DomMatrix& bck,
                                 DomMatrix& pp);
// dom_optacc.hpp's fill, whole vectors for its lanes (equal to the bit).
float dom_optimal_accuracy_cpu(const FwdProfile& fp, const DomSpecialOdds& xo, const DomMatrix& pp, DomMatrix& ox);
// dom_null2_by_trace into null2 (Kp values), equal to the bit: only the
// striped positions the domain visits, four residues at a time, with no
// insert slots (a trace counts none, §16.2). usage is scratch kept between
// calls. The emission odds must be finite, as build_fwd_profile makes them.
void dom_null2_by_trace_cpu(const FwdProfile& p, const Alphabet& abc, const DomTrace& tr, int zstart, int zend,
                            std::vector<float>& null2, std::vector<float>& usage);

}  // namespace warpdp
