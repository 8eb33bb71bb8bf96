// Scalar Forward-parser reference: one striped row at a time, each 4-lane
// vector operation of HMMER's SSE code written as four float operations in
// the same order, so every step reads against docs/hmmer-filters.md §7.2.
#include "core/hmmer/fwd/fwd_reference.hpp"

#include <array>
#include <cmath>
#include <vector>

#include "core/hmmer/fwd/fwd_engine.hpp"
#include "core/hmmer/profile.hpp"

namespace warpdp {
namespace {

using Lanes = std::array<float, kFwdLanes>;

float mul(float a, float b) { return flush_denormal(a * b); }
float add(float a, float b) { return flush_denormal(a + b); }

Lanes mul(const Lanes& a, const float* b) {
    Lanes r;
    for (int z = 0; z < kFwdLanes; ++z) r[z] = mul(a[z], b[z]);
    return r;
}
Lanes mul(const Lanes& a, const Lanes& b) { return mul(a, b.data()); }
Lanes add(const Lanes& a, const Lanes& b) {
    Lanes r;
    for (int z = 0; z < kFwdLanes; ++z) r[z] = add(a[z], b[z]);
    return r;
}
// Lane z takes lane z-1's value; lane 0 takes 0 (esl_sse_rightshift_ps).
Lanes shift(const Lanes& a) { return {0.0f, a[0], a[1], a[2]}; }
Lanes splat(float v) { return {v, v, v, v}; }

}  // namespace

float fwd_reference(const FwdProfile& p, std::span<const uint8_t> dsq) {
    const int Q = p.Q;
    const uint64_t L = dsq.size();
    const Lanes zero{};
    // One row, updated in place: position q holds row i-1 until row i's q is done.
    std::vector<Lanes> Mx(static_cast<size_t>(Q), zero), Dx(static_cast<size_t>(Q), zero), Ix(static_cast<size_t>(Q), zero);
    const float pmove = profile_pmove(L);
    const float ploop = 1.0f - pmove;
    constexpr float e_move = 0.5f, e_loop = 0.5f;  // expf(-ln 2) in multihit mode
    float xN = 1.0f, xJ = 0.0f, xB = pmove, xC = 0.0f;
    float totscale = 0.0f;
    for (uint8_t x : dsq) {
        Lanes dcv = zero, xEv = zero;
        const Lanes xBv = splat(xB);
        Lanes mpv = shift(Mx[static_cast<size_t>(Q - 1)]);
        Lanes dpv = shift(Dx[static_cast<size_t>(Q - 1)]);
        Lanes ipv = shift(Ix[static_cast<size_t>(Q - 1)]);
        for (int q = 0; q < Q; ++q) {
            const auto qs = static_cast<size_t>(q);
            Lanes sv = mul(xBv, p.t(q, kFBM));
            sv = add(sv, mul(mpv, p.t(q, kFMM)));
            sv = add(sv, mul(ipv, p.t(q, kFIM)));
            sv = add(sv, mul(dpv, p.t(q, kFDM)));
            sv = mul(sv, p.e(x, q));
            xEv = add(xEv, sv);
            mpv = Mx[qs];
            dpv = Dx[qs];
            ipv = Ix[qs];
            Mx[qs] = sv;
            Dx[qs] = dcv;  // M->D from position q-1 (0 at q = 0)
            dcv = mul(sv, p.t(q, kFMD));
            Ix[qs] = add(mul(mpv, p.t(q, kFMI)), mul(ipv, p.t(q, kFII)));
        }
        // D->D: one full pass carrying the D values, then up to three passes
        // carrying only the D->D extensions across the lane boundary.
        dcv = shift(dcv);
        Dx[0] = zero;
        for (int q = 0; q < Q; ++q) {
            const auto qs = static_cast<size_t>(q);
            Dx[qs] = add(dcv, Dx[qs]);
            dcv = mul(Dx[qs], p.t(q, kFDD));
        }
        for (int pass = 1; pass < kFwdLanes; ++pass) {
            dcv = shift(dcv);
            bool changed = false;
            for (int q = 0; q < Q; ++q) {
                const auto qs = static_cast<size_t>(q);
                const Lanes sv = add(dcv, Dx[qs]);
                for (int z = 0; z < kFwdLanes; ++z) changed = changed || sv[z] > Dx[qs][z];
                Dx[qs] = sv;
                dcv = mul(dcv, p.t(q, kFDD));
            }
            if (p.M >= 100 && !changed) break;  // small models always run all three
        }
        for (int q = 0; q < Q; ++q) xEv = add(Dx[static_cast<size_t>(q)], xEv);
        const float xE = add(add(xEv[0], xEv[1]), add(xEv[2], xEv[3]));

        xN = mul(xN, ploop);
        xC = add(mul(xC, ploop), mul(xE, e_move));
        xJ = add(mul(xJ, ploop), mul(xE, e_loop));
        xB = add(mul(xJ, pmove), mul(xN, pmove));
        if (xE > 1.0e4f) {  // sparse rescaling
            xN = flush_denormal(xN / xE);
            xC = flush_denormal(xC / xE);
            xJ = flush_denormal(xJ / xE);
            xB = flush_denormal(xB / xE);
            // The double quotient rounded to float flushes too (FTZ covers conversions).
            const Lanes s = splat(flush_denormal(static_cast<float>(1.0 / static_cast<double>(xE))));
            for (int q = 0; q < Q; ++q) {
                const auto qs = static_cast<size_t>(q);
                Mx[qs] = mul(Mx[qs], s);
                Dx[qs] = mul(Dx[qs], s);
                Ix[qs] = mul(Ix[qs], s);
            }
            totscale = static_cast<float>(static_cast<double>(totscale) + std::log(static_cast<double>(xE)));
        }
    }
    if (std::isnan(xC) || (L > 0 && xC == 0.0f) || std::isinf(xC)) return std::nanf("");
    const float last = mul(xC, pmove);
    return static_cast<float>(static_cast<double>(totscale) + std::log(static_cast<double>(last)));
}

namespace {

class FwdReferenceEngine final : public FwdEngine {
public:
    std::string name() const override { return "reference"; }
    void score_many(std::span<const FwdJob> jobs) override {
        for (const FwdJob& job : jobs)
            for (size_t j = 0; j < job.targets->size(); ++j) job.out[j] = fwd_reference(*job.profile, job.targets->seq(j));
    }
};

}  // namespace

std::unique_ptr<FwdEngine> make_fwd_reference_engine() { return std::make_unique<FwdReferenceEngine>(); }

}  // namespace warpdp
