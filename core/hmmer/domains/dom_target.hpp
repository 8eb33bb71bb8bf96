// What hmmsearch's pipeline does for one target after it passed the Forward
// filter (docs/hmmer-filters.md §16.4): domain definition from the posterior
// decoding, envelopes, per-domain rescoring with null2, the alignments, and
// the sequence and domain scores. Reporting thresholds are the caller's.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "core/base/easel_random.hpp"
#include "core/hmmer/domains/dom_decoding.hpp"
#include "core/hmmer/domains/dom_ensemble.hpp"
#include "core/hmmer/domains/dom_hit.hpp"
#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_specials.hpp"

namespace warpdp {

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
};
DomKernels dom_reference_kernels();
DomKernels dom_vector_kernels();

// One thread's scratch, kept from target to target.
struct DomWorkspace {
    explicit DomWorkspace(uint32_t seed) : rng(EaselRandom::Kind::fast, seed) {}
    DomMatrix fwd_parser, bck_parser, fwd, bck, oa;
    DomOccupancy occupancy;
    DomEnsemble ensemble;
    EaselRandom rng;
};

// What becomes of a target: a hit; no hit (no region, envelope or
// domain); or one of the range errors on which hmmsearch 3.3.2 aborts
// the whole search (a Forward or Backward score that is NaN or under- or
// overflows, or a domain decoding that overflows).
enum class DomOutcome { hit, no_domain, forward_range_error, backward_range_error, decoding_overflow };

// hmmsearch's message for an outcome that stops it.
const char* dom_outcome_error(DomOutcome o) noexcept;

// Searches `target` as hmmsearch's pipeline does after the Forward filter;
// with DomOutcome::hit, `hit` holds the hit, whatever its score.
DomOutcome dom_search_target(const DomKernels& k, const DomModel& model, const DomTarget& target,
                             const DomSettings& settings, DomWorkspace& ws, DomHit& hit);

}  // namespace warpdp
