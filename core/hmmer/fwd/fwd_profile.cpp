// Building the Forward odds profile, and the two pieces of float arithmetic
// every form of the Forward filter shares: Easel's vector expf (which the
// profile's odds come from) and the final score.
#include "core/hmmer/fwd/fwd_profile.hpp"

#include <bit>
#include <cmath>
#include <limits>

#include "core/hmmer/profile.hpp"

namespace warpdp {

float easel_expf(float x) noexcept {
    constexpr float maxlogf = 88.3762626647949f;
    if (std::isnan(x)) return x;
    if (x > maxlogf) return std::numeric_limits<float>::infinity();
    if (x <= -maxlogf) return 0.0f;
    // NaN and out-of-range x have returned above, as in Easel, so the
    // casts to int below only see |x / ln 2| < 128.
    const auto f = flush_denormal;
    // k = floor(0.5 + x / ln 2), the floor by truncation and correction
    float fx = f(f(x * static_cast<float>(1.44269504088896341)) + 0.5f);
    const float tr = static_cast<float>(static_cast<int32_t>(fx));
    fx = f(tr - (tr > fx ? 1.0f : 0.0f));
    const int32_t k = static_cast<int32_t>(fx);
    // two-constant Cody-Waite reduction, then the degree-5 polynomial
    x = f(x - f(fx * 0.693359375f));
    x = f(x - f(fx * -2.12194440e-4f));
    const float z = f(x * x);
    float y = 1.9875691500e-4f;
    y = f(f(y * x) + 1.3981999507e-3f);
    y = f(f(y * x) + 8.3334519073e-3f);
    y = f(f(y * x) + 4.1665795894e-2f);
    y = f(f(y * x) + 1.6666665459e-1f);
    y = f(f(y * x) + 5.0000001201e-1f);
    y = f(f(f(y * z) + x) + 1.0f);
    // 2^k built from exponent bits: k = -127 gives the bit pattern of 0
    const float p2 = std::bit_cast<float>(static_cast<uint32_t>(k + 127) << 23);
    return f(y * p2);
}

FwdProfile build_fwd_profile(const Profile& prof) {
    FwdProfile p;
    const int M = prof.M;
    const int Q = fwd_segments(M);
    p.M = M;
    p.Q = Q;
    p.Kp = prof.Kp;
    const auto Qs = static_cast<size_t>(Q);
    p.emit.assign(static_cast<size_t>(p.Kp) * Qs * kFwdLanes, 0.0f);
    p.trans.assign(Qs * kFwdNumTrans * kFwdLanes, 0.0f);
    const float ninf = -std::numeric_limits<float>::infinity();
    // HMMER's generic transition score of node k (0..M-1; node 0 has only
    // its B->M_1 entry, stored off by one as for every k).
    auto tsc = [&](int k, FwdTrans s) -> float {
        if (k < 0 || k >= M) return ninf;
        if (s == kFBM) return prof.tbm[static_cast<size_t>(k) + 1];
        if (k == 0) return ninf;
        static constexpr int from_slot[kFwdNumTrans] = {-1, kTMM, kTIM, kTDM, kTMD, kTMI, kTII, kTDD};
        return prof.tsc[static_cast<size_t>(k)][static_cast<size_t>(from_slot[s])];
    };
    for (int q = 0; q < Q; ++q)
        for (int z = 0; z < kFwdLanes; ++z) {
            const int k = q + 1 + z * Q;  // the node of this lane
            for (int x = 0; x < p.Kp; ++x)
                p.emit[(static_cast<size_t>(x) * Qs + static_cast<size_t>(q)) * kFwdLanes + static_cast<size_t>(z)] =
                    easel_expf(k <= M ? prof.match_score(k, x) : ninf);
            float* tr = &p.trans[static_cast<size_t>(q) * kFwdNumTrans * kFwdLanes + static_cast<size_t>(z)];
            // Into node k: from B and from node k-1; out of node k: to k / k+1.
            for (FwdTrans s : {kFBM, kFMM, kFIM, kFDM}) tr[s * kFwdLanes] = easel_expf(tsc(k - 1, s));
            for (FwdTrans s : {kFMD, kFMI, kFII, kFDD}) tr[s * kFwdLanes] = easel_expf(tsc(k, s));
        }
    return p;
}

float fwd_finish(std::span<const float> scales, float xC, uint64_t L) {
    if (std::isnan(xC) || (L > 0 && xC == 0.0f) || std::isinf(xC)) return std::numeric_limits<float>::quiet_NaN();
    float totscale = 0.0f;
    for (float s : scales) totscale = static_cast<float>(static_cast<double>(totscale) + std::log(static_cast<double>(s)));
    const float last = flush_denormal(xC * profile_pmove(L));
    return static_cast<float>(static_cast<double>(totscale) + std::log(static_cast<double>(last)));
}

}  // namespace warpdp
