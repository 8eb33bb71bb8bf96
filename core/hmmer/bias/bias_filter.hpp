// HMMER's composition-bias filter (docs/hmmer-filters.md §7.1): a two-state HMM
// (background vs. the model's mean composition) whose Forward score replaces
// the null score when the MSV P-value is re-evaluated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/base/simd_variants.hpp"
#include "core/hmmer/bias/bias_lanes_kernels.hpp"
#include "core/hmmer/hmm.hpp"

namespace warpdp {

// One entry of the bias filter's table of variants: its Forward over many
// targets, to bias_lanes_kernels.hpp's contract (the log-scaled sum with
// its end term, before the length model's terms).
struct BiasCpuKernels {
    void (*forward)(const bias_lanes::Model& m, const uint8_t* const* seqs, const uint64_t* lens, const float* p1s,
                    size_t n, float* out);
};
using BiasCpuVariant = SimdVariant<BiasCpuKernels>;

// Best first: bias_lanes_avx2_f32 (x86-64 only: eight targets at a time,
// one per lane; fewer than two targets, or more codes than the lanes hold,
// take the loop instead) and bias_serial_base_f32 (filter_score's loop).
std::span<const BiasCpuVariant> bias_cpu_variants();

class BiasFilter {
public:
    explicit BiasFilter(const Hmm& hmm);
    // filtersc in nats for a digitised target; dsq must not be empty.
    float filter_score(std::span<const uint8_t> dsq) const;
    // filter_score of each target into out (same size), by
    // choose_variant<bias_cpu_variants>() or by `v` (tests, benchmarks; one
    // this CPU lacks throws std::invalid_argument); every variant gives the
    // same scores bit for bit. No target may be empty.
    void filter_scores(std::span<const std::span<const uint8_t>> dsqs, std::span<float> out) const;
    void filter_scores(std::span<const std::span<const uint8_t>> dsqs, std::span<float> out,
                       const BiasCpuVariant& v) const;

private:
    int Kp_ = 0;
    float t10_ = 0, t11_ = 0;   // composition state: leave / stay
    std::vector<float> odds0_;  // per code, background state (1.0 for residues)
    std::vector<float> odds1_;  // per code, composition state
};

}  // namespace warpdp
