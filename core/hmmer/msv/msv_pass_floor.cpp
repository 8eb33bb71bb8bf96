// The per-length raw MSV score below which a target certainly fails F1, so
// that most targets are decided by one compare.
#include "core/hmmer/msv/msv_pass_floor.hpp"

#include <cmath>

namespace warpdp {

MsvPassFloor::MsvPassFloor(const MsvModel& model, double F1)
    : model_(model), F1_(F1), cache_(std::make_unique<std::atomic<uint32_t>[]>(kCached)) {
    const double mu = model.hmm.evparam[kMsvMu];
    const double lambda = model.hmm.evparam[kMsvLambda];
    usable_ = std::isfinite(mu) && std::isfinite(lambda) && lambda > 0 && F1 < 1;
    for (uint64_t i = 0; i < kCached; ++i) cache_[i].store(0, std::memory_order_relaxed);
}

uint16_t MsvPassFloor::floor(uint64_t L) const {
    if (!usable_) return 0;
    if (L >= kCached) return compute(L);
    uint32_t v = cache_[L].load(std::memory_order_relaxed);
    if (v == 0) {  // threads racing here store the same value
        v = static_cast<uint32_t>(compute(L)) + 1;
        cache_[L].store(v, std::memory_order_relaxed);
    }
    return static_cast<uint16_t>(v - 1);
}

uint16_t MsvPassFloor::compute(uint64_t L) const {
    const auto passes = [&](uint16_t raw) { return msv_stage_verdict(model_, raw, L, F1_).pass_msv; };
    // The first passing raw, by bisection (the score grows with raw; the
    // overflow code, +inf bits, always passes).
    uint16_t lo = 0, hi = kMsvOverflow;
    while (lo < hi) {
        const uint16_t mid = static_cast<uint16_t>(lo + (hi - lo) / 2);
        if (passes(mid)) hi = mid;
        else lo = static_cast<uint16_t>(mid + 1);
    }
    return lo > kMargin ? static_cast<uint16_t>(lo - kMargin) : 0;
}

}  // namespace warpdp
