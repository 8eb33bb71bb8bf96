// The terms of hmmsearch's pipeline for one target after it passed the
// Forward filter (docs/hmmer-filters.md §16.4): the model, the target, the
// settings, the float kernels and the outcome. The pipeline itself runs in
// the stages of dom_stages.hpp, driven by dom_engine.hpp.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/hmmer/domains/dom_decoding.hpp"
#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_specials.hpp"
#include "core/hmmer/domains/dom_trace.hpp"

namespace warpdp {

class Alphabet;
struct Hmm;
struct FwdProfile;

struct DomSettings {
    bool null2 = true;   // false: --nonull2
    uint32_t seed = 42;  // --seed; 0 (no reseeding) makes results depend on target order: not covered
};

struct DomModel {
    const Hmm* hmm = nullptr;
    const FwdProfile* odds = nullptr;  // the Forward filter's striped odds
};

struct DomTarget {
    std::string_view name, acc, desc;
    std::span<const uint8_t> dsq;  // residue i (1-based) at dsq[i - 1]
    int64_t seqidx = 0;
};

// The float kernels a search runs: the scalar references or the vector
// forms (equal to the bit, core/hmmer/domains/dom_cpu.hpp).
struct DomKernels {
    float (*forward)(const FwdProfile&, const DomSpecialOdds&, std::span<const uint8_t>, DomMatrix&, bool);
    float (*backward)(const FwdProfile&, const DomSpecialOdds&, std::span<const uint8_t>, const DomMatrix&,
                      DomMatrix&, bool);
    DomDecodeStatus (*decoding)(const DomSpecialOdds&, const DomMatrix&, const DomMatrix&, DomMatrix&);
    float (*optimal_accuracy)(const FwdProfile&, const DomSpecialOdds&, const DomMatrix&, DomMatrix&);
    // null2 by trace of steps zstart..zend into null2; the last vector is
    // scratch the kernel may keep between calls.
    void (*null2_by_trace)(const FwdProfile&, const Alphabet&, const DomTrace&, int zstart, int zend,
                           std::vector<float>& null2, std::vector<float>& scratch);
};
DomKernels dom_reference_kernels();
DomKernels dom_vector_kernels();

// What becomes of a target: a hit; no hit (no region, envelope or
// domain); or one of the range errors on which hmmsearch 3.3.2 aborts
// the whole search (a Forward or Backward score that is NaN or under- or
// overflows, or a domain decoding that overflows).
enum class DomOutcome { hit, no_domain, forward_range_error, backward_range_error, decoding_overflow };

// hmmsearch's message for an outcome that stops it.
const char* dom_outcome_error(DomOutcome o) noexcept;

}  // namespace warpdp
