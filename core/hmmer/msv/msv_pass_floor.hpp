// Which raw MSV results certainly fail the MSV stage, so that the verdict
// (a log and two exps: the host's largest cost in a GPU run, where ~98% of
// the targets fail) is computed only for the rest. Exact: the floor is found
// with the stage's own verdict (msv_stage_verdict), kept a margin below the
// first passing raw.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "core/hmmer/msv/msv_model.hpp"

namespace warpdp {

class MsvPassFloor {
public:
    MsvPassFloor(const MsvModel& model, double F1);

    // True when a target of L residues with this raw MSV result fails the
    // MSV stage (and so the bias stage). False says nothing: decide it.
    // Safe to call from several threads.
    bool fails(uint16_t raw, uint64_t L) const { return raw < floor(L); }

    // The lowest raw result that is decided in full at length L.
    uint16_t floor(uint64_t L) const;

    // Raw units between the first passing raw and the floor. One unit is a
    // third of a bit, so the P-value at the floor is about e^(2 lambda) times
    // (~4x; MSV lambdas are near ln 2) that at the first passing raw: far
    // beyond any rounding in the score arithmetic, which is monotone in raw
    // only up to an ulp here and there.
    static constexpr uint16_t kMargin = 6;

private:
    uint16_t compute(uint64_t L) const;

    const MsvModel& model_;
    double F1_;
    bool usable_;  // lambda > 0 and finite parameters: P falls as raw grows
    static constexpr uint64_t kCached = uint64_t{1} << 16;  // lengths below are memoized
    std::unique_ptr<std::atomic<uint32_t>[]> cache_;       // floor + 1; 0: not yet known
};

}  // namespace warpdp
