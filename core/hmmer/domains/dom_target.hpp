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

// Where hmmsearch stops a target without a hit, and why.
enum class DomOutcome { hit, no_domain, decoding_overflow };

// The hit hmmsearch would make of `target`, whatever its score: DomOutcome::hit
// and `hit` filled, or no_domain (no region, envelope or domain), or
// decoding_overflow, where hmmsearch's domain definition fails and it exits
// with an error.
DomOutcome dom_search_target(const DomKernels& k, const DomModel& model, const DomTarget& target,
                             const DomSettings& settings, DomWorkspace& ws, DomHit& hit);

}  // namespace warpdp
