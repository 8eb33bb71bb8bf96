// Scalar Viterbi-filter reference; one row at a time, plain int with explicit
// int16 saturation so each step reads against docs/hmmer-filters.md §6.2.
#include "core/hmmer/vit/vit_reference.hpp"

#include <algorithm>
#include <vector>

namespace warpdp {
namespace {

int sat16(int v) { return std::clamp(v, -32768, 32767); }

}  // namespace

uint32_t vit_reference(const VitWordProfile& p, std::span<const uint8_t> dsq) {
    const int M = p.M;
    const int ncj = vit_ncj_move(dsq.size());
    const auto n = static_cast<size_t>(M) + 1;
    std::vector<int> Mp(n, kWordNegInf), Ip(n, kWordNegInf), Dp(n, kWordNegInf);
    std::vector<int> Mc(n, kWordNegInf), Ic(n, kWordNegInf), Dc(n, kWordNegInf);
    const int xN = kVitBase;
    int xB = xN + ncj;
    int xC = kWordNegInf, xJ = kWordNegInf;
    for (uint8_t x : dsq) {
        Mc[0] = Ic[0] = Dc[0] = kWordNegInf;
        for (int k = 1; k <= M; ++k) {
            const auto ks = static_cast<size_t>(k);
            int v = sat16(xB + p.t(k, kVBM));
            v = std::max(v, sat16(Mp[ks - 1] + p.t(k, kVMM)));
            v = std::max(v, sat16(Ip[ks - 1] + p.t(k, kVIM)));
            v = std::max(v, sat16(Dp[ks - 1] + p.t(k, kVDM)));
            Mc[ks] = sat16(v + p.e(x, k));
            Ic[ks] = std::max(sat16(Mp[ks] + p.t(k, kVMI)), sat16(Ip[ks] + p.t(k, kVII)));
        }
        Dc[1] = kWordNegInf;
        for (int k = 2; k <= M; ++k) {
            const auto ks = static_cast<size_t>(k);
            Dc[ks] = std::max(sat16(Mc[ks - 1] + p.t(k - 1, kVMD)), sat16(Dc[ks - 1] + p.t(k - 1, kVDD)));
        }
        int xE = kWordNegInf;
        for (int k = 1; k <= M; ++k) xE = std::max(xE, Mc[static_cast<size_t>(k)]);
        if (xE >= 32767) return kVitOverflow;
        xC = std::max(xC, xE + kVitEMove);
        xJ = std::max(xJ, xE + kVitEMove);
        xB = std::max(xJ + ncj, xN + ncj);
        std::swap(Mp, Mc);
        std::swap(Ip, Ic);
        std::swap(Dp, Dc);
    }
    if (xC <= kWordNegInf) return kVitNoPath;
    return static_cast<uint32_t>(xC + 32768);
}

}  // namespace warpdp

#include "core/hmmer/vit/vit_engine.hpp"

namespace warpdp {
namespace {

class VitReferenceEngine final : public VitEngine {
public:
    std::string name() const override { return "reference"; }
    void load_targets(const SeqBatch& targets) override { targets_ = &targets; }
    void score(const VitWordProfile& profile, std::span<const uint32_t> which, std::span<uint32_t> out) override {
        for (size_t j = 0; j < which.size(); ++j) out[j] = vit_reference(profile, targets_->seq(which[j]));
    }

private:
    const SeqBatch* targets_ = nullptr;
};

}  // namespace

std::unique_ptr<VitEngine> make_vit_reference_engine() { return std::make_unique<VitReferenceEngine>(); }

}  // namespace warpdp
