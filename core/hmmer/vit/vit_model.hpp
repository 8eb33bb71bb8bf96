// Everything hmmsearch derives from one model for the Viterbi filter stage
// (the word profile), and the host-side decision for one target: raw
// engine result -> nats -> bits -> Gumbel P-value -> pass
// (docs/hmmer-filters.md §6.2, §8.1).
// This is the only place that arithmetic is written.
#pragma once

#include <cstdint>

#include "core/hmmer/hmm.hpp"
#include "core/hmmer/msv/msv_model.hpp"
#include "core/hmmer/profile.hpp"
#include "core/hmmer/vit/vit_profile.hpp"

namespace warpdp {

struct VitModel {
    VitWordProfile words;

    explicit VitModel(const Profile& prof);
    explicit VitModel(const MsvModel& msv) : VitModel(msv.prof) {}
};

struct VitVerdict {
    float vfsc = 0;  // Viterbi-filter score, nats (+inf on overflow, -inf without a path)
    float bits = 0;  // against filtersc
    double p = 1;    // Gumbel(VMU, VLAMBDA) survival
    bool pass = false;  // p <= F2 (NaN passes, as in HMMER)
};

// filtersc: the null score (--nobias) or the bias-filter score of the target;
// raw: an engine's result for this target of length L >= 1.
VitVerdict vit_verdict(const Hmm& hmm, float filtersc, uint32_t raw, uint64_t L, double F2);

// The pipeline runs the Viterbi filter only for bias passers whose
// (bias-corrected) MSV P-value is above F2; the others pass the stage as is.
inline bool vit_filter_needed(const MsvVerdict& m, double F2) { return m.pass_bias && m.bias_p > F2; }
// Whether a target passes the pipeline's Viterbi stage; `vit` is read only
// when vit_filter_needed(m, F2).
inline bool vit_stage_pass(const MsvVerdict& m, const VitVerdict& vit, double F2) {
    return m.pass_bias && (!(m.bias_p > F2) || vit.pass);
}

}  // namespace warpdp
