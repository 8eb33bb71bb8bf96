// Scalar MSV/SSV reference. Plain int arithmetic with explicit saturation so
// every step can be read against docs/hmmer-filters.md §5.2-§5.3; no
// striping, no vectors.
#include "core/hmmer/msv/msv_reference.hpp"

#include <algorithm>
#include <vector>

#include "core/hmmer/msv/msv_engine.hpp"

namespace warpdp {
namespace {

int sat8(int v) { return std::clamp(v, 0, 255); }

}  // namespace

uint16_t msv_full_reference(const MsvByteProfile& p, std::span<const uint8_t> dsq) {
    const int M = p.M;
    const int tjb = msv_tjb(dsq.size());
    const int tjbm = (tjb + p.tbm) & 255;
    int xJ = 0;
    int xB = sat8(kMsvBase - tjbm);
    std::vector<int> prev(static_cast<size_t>(M) + 1, 0), cur(static_cast<size_t>(M) + 1, 0);
    for (uint8_t x : dsq) {
        int xE = 0;
        for (int k = 1; k <= M; ++k) {
            int v = std::max(prev[static_cast<size_t>(k) - 1], xB);
            v = sat8(v + p.bias);
            v = sat8(v - p.cost_at(x, k));
            cur[static_cast<size_t>(k)] = v;
            xE = std::max(xE, v);
        }
        if (sat8(xE + p.bias) == 255) return kMsvOverflow;
        xE = sat8(xE - p.tec);
        xJ = std::max(xJ, xE);
        xB = sat8(std::max(kMsvBase, xJ) - tjbm);
        std::swap(prev, cur);
    }
    return static_cast<uint16_t>(xJ);
}

uint16_t ssv_reference(const MsvByteProfile& p, std::span<const uint8_t> dsq) {
    const int M = p.M;
    const int tjb = msv_tjb(dsq.size());
    if (tjb + p.tbm + p.tec + p.bias >= 127) return kSsvNoResult;
    const int xB0 = kMsvBase - tjb - p.tbm;
    std::vector<int> prev(static_cast<size_t>(M) + 1, xB0), cur(static_cast<size_t>(M) + 1, xB0);
    int xEmax = xB0;  // the SSV floor: the maximum starts at xB0, not 0
    for (uint8_t x : dsq) {
        for (int k = 1; k <= M; ++k) {
            const int from = std::max(prev[static_cast<size_t>(k) - 1], xB0);
            const int v = std::max(xB0, from + p.bias - p.cost_at(x, k));
            cur[static_cast<size_t>(k)] = v;
            xEmax = std::max(xEmax, v);
        }
        std::swap(prev, cur);
    }
    const int off = xB0 - 128;
    const int u = std::min(255, xEmax - off);
    if (u >= 255 - p.bias) return off >= 0 ? kMsvOverflow : kSsvNoResult;
    if (xEmax >= 255 - p.bias) return kMsvOverflow;
    const int xJ = xEmax - p.tec;
    if (xJ > kMsvBase) return kSsvNoResult;  // the J state might have been used
    return static_cast<uint16_t>(xJ);
}

uint16_t msv_reference(const MsvByteProfile& p, std::span<const uint8_t> dsq) {
    const uint16_t ssv = ssv_reference(p, dsq);
    return ssv != kSsvNoResult ? ssv : msv_full_reference(p, dsq);
}

namespace {

class ReferenceEngine final : public MsvEngine {
public:
    std::string name() const override { return "reference"; }
    void load_targets(const SeqBatch& targets) override { targets_ = &targets; }
    void score(const MsvByteProfile& profile, std::span<uint16_t> out) override {
        for (size_t t = 0; t < targets_->size(); ++t) out[t] = msv_reference(profile, targets_->seq(t));
    }
    size_t resident_targets() const override { return targets_ ? targets_->size() : 0; }

private:
    const SeqBatch* targets_ = nullptr;
};

}  // namespace

std::unique_ptr<MsvEngine> make_msv_reference_engine() { return std::make_unique<ReferenceEngine>(); }

}  // namespace warpdp
