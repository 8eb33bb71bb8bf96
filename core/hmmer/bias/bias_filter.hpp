// HMMER's composition-bias filter (spec §7.1): a two-state HMM (background
// vs. the model's mean composition) whose Forward score replaces the null
// score when the MSV P-value is re-evaluated.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/hmmer/hmm.hpp"

namespace warpdp {

class BiasFilter {
public:
    explicit BiasFilter(const Hmm& hmm);
    // filtersc in nats for a digitised target; dsq must not be empty.
    float filter_score(std::span<const uint8_t> dsq) const;
    // filter_score of each target into out (same size), eight at a time on
    // AVX2 lanes when the CPU has them (bit for bit the same scores; lanes =
    // false forces the loop above, for tests). No target may be empty.
    void filter_scores(std::span<const std::span<const uint8_t>> dsqs, std::span<float> out,
                       bool lanes = true) const;
    // Whether filter_scores runs on lanes on this CPU.
    static bool lanes_available();

private:
    int Kp_ = 0;
    float t10_ = 0, t11_ = 0;   // composition state: leave / stay
    std::vector<float> odds0_;  // per code, background state (1.0 for residues)
    std::vector<float> odds1_;  // per code, composition state
};

}  // namespace warpdp
