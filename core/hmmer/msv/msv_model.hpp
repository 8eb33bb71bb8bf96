// Everything hmmsearch derives from one model for its first two filter
// stages (MSV and bias), plus the host-side decision for one target: from
// the engine's raw MSV result to P-values and pass/fail
// (docs/hmmer-filters.md §8.1).
#pragma once

#include <cstdint>
#include <span>

#include "core/hmmer/bias/bias_filter.hpp"
#include "core/hmmer/hmm.hpp"
#include "core/hmmer/msv/msv_profile.hpp"
#include "core/hmmer/profile.hpp"

namespace warpdp {

struct MsvModel {
    Hmm hmm;
    Profile prof;
    MsvByteProfile bytes;
    BiasFilter bias;

    explicit MsvModel(Hmm h);
};

struct MsvVerdict {
    float usc = 0;        // MSV score, nats (+inf on byte overflow)
    float nullsc = 0;     // null score, nats
    float msv_bits = 0;
    double msv_p = 1;
    bool pass_msv = false;   // msv_p <= F1
    // Bias stage: computed only for MSV passers when the filter is on;
    // otherwise filtersc = nullsc and the bias stage passes what MSV passed.
    float filtersc = 0;
    float bias_bits = 0;
    double bias_p = 1;
    bool pass_bias = false;
};

// Decision for one non-empty target whose raw MSV result (xJ or
// kMsvOverflow) an engine computed. A model without STATS (evparam -99999)
// gets P = 1 everywhere, as in hmmsearch.
MsvVerdict msv_verdict(const MsvModel& model, std::span<const uint8_t> dsq, uint16_t raw, double F1, bool with_bias);

// msv_verdict's bias stage for several targets at once (their MSV stage
// verdicts, from msv_stage_verdict, updated in place; those that failed MSV
// are left as they are): the filter runs on lanes of targets
// (BiasFilter::filter_scores), with the same result as msv_verdict's.
void msv_bias_stage(const MsvModel& model, std::span<const std::span<const uint8_t>> dsqs,
                    std::span<MsvVerdict> verdicts, double F1);

// The MSV stage alone (no bias filter), which reads only the target's length.
MsvVerdict msv_stage_verdict(const MsvModel& model, uint16_t raw, uint64_t L, double F1);

}  // namespace warpdp
