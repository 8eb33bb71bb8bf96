// The region heuristics in float, as HMMER evaluates them
// (docs/hmmer-filters.md §16.3).
#include "core/hmmer/domains/dom_regions.hpp"

#include "core/base/errors.hpp"

namespace warpdp {

namespace {
// Easel's ESL_MIN / ESL_MAX, kept for how they treat NaN
float emin(float a, float b) { return a < b ? a : b; }
float emax(float a, float b) { return a > b ? a : b; }
}  // namespace

bool dom_is_multidomain_region(std::span<const float> btot, std::span<const float> etot, int64_t i, int64_t j,
                               float rt3) {
    float best = -1.0f;
    for (int64_t z = i; z <= j; ++z) {
        const auto zs = static_cast<size_t>(z);
        const float expected = emin(etot[zs] - etot[static_cast<size_t>(i) - 1], btot[static_cast<size_t>(j)] - btot[zs - 1]);
        best = emax(best, expected);
    }
    return best >= rt3;
}

std::vector<DomRegion> dom_find_regions(std::span<const float> mocc, std::span<const float> btot,
                                        std::span<const float> etot, const DomRegionThresholds& t) {
    if (mocc.empty() || btot.size() != mocc.size() || etot.size() != mocc.size())
        throw InternalError("dom_find_regions: arrays of rows 0..L of one length");
    const auto L = static_cast<int64_t>(mocc.size()) - 1;
    std::vector<DomRegion> out;
    int64_t i = -1;
    bool triggered = false;
    for (int64_t j = 1; j <= L; ++j) {
        const auto js = static_cast<size_t>(j);
        if (!triggered) {
            // the start follows the last residue that is not mostly a begin
            if (mocc[js] - (btot[js] - btot[js - 1]) < t.rt2) i = j;
            else if (i == -1) i = j;
            if (mocc[js] >= t.rt1) triggered = true;
        } else if (mocc[js] - (etot[js] - etot[js - 1]) < t.rt2) {
            out.push_back(DomRegion{i, j, dom_is_multidomain_region(btot, etot, i, j, t.rt3)});
            i = -1;
            triggered = false;
        }
    }
    return out;
}

}  // namespace warpdp
