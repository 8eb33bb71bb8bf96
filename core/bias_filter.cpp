// Bias filter. The state-0 transitions come from the per-target length
// (p1 = L/(L+1)), not the 400/401 HMMER's set-up intends: hmmsearch resets
// them per target and its pass counts show it, so we do the same.
#include "core/bias_filter.hpp"

#include <cmath>

#include "core/background.hpp"
#include "core/errors.hpp"

namespace warpdp {

BiasFilter::BiasFilter(const Hmm& hmm) {
    const Alphabet& abc = Alphabet::of(hmm.alph);
    const std::vector<float>& f = background_frequencies(hmm.alph);
    const int K = abc.K();
    Kp_ = abc.Kp();
    const float L1 = static_cast<float>(static_cast<double>(static_cast<float>(hmm.M)) / 8.0);
    t10_ = 1.0f / (L1 + 1.0f);
    t11_ = L1 / (L1 + 1.0f);

    odds0_.assign(static_cast<size_t>(Kp_), 1.0f);
    odds1_.assign(static_cast<size_t>(Kp_), 1.0f);
    const std::vector<float>* emit[2] = {&f, &hmm.compo};
    std::vector<float>* odds[2] = {&odds0_, &odds1_};
    for (int s = 0; s < 2; ++s) {
        const std::vector<float>& e = *emit[s];
        std::vector<float>& o = *odds[s];
        for (int x = 0; x < K; ++x) o[static_cast<size_t>(x)] = e[static_cast<size_t>(x)] / f[static_cast<size_t>(x)];
        for (int x = K + 1; x < Kp_ - 2; ++x) {
            float num = 0.0f, den = 0.0f;
            for (int y = 0; y < K; ++y) {
                if (!abc.degenerate_has(x, y)) continue;
                num += e[static_cast<size_t>(y)];
                den += f[static_cast<size_t>(y)];
            }
            o[static_cast<size_t>(x)] = den > 0.0f ? num / den : 0.0f;
        }
        // gap, '*' and '~' keep odds 1.0
    }
}

float BiasFilter::filter_score(std::span<const uint8_t> dsq) const {
    if (dsq.empty()) throw InternalError("bias filter called on an empty sequence");
    const uint64_t L = dsq.size();
    const float p1 = static_cast<float>(L) / static_cast<float>(L + 1);
    const float t00 = p1, t01 = 1.0f - p1;
    const float pi0 = 0.999f, pi1 = 0.001f;

    // Scaled Forward: rescale by the row maximum, keep the log scale factors.
    float d0 = odds0_[dsq[0]] * pi0;
    float d1 = odds1_[dsq[0]] * pi1;
    auto rescale = [&]() {
        float m = 0.0f;
        if (d0 > m) m = d0;
        if (d1 > m) m = d1;
        d0 = d0 / m;
        d1 = d1 / m;
        return static_cast<float>(std::log(static_cast<double>(m)));
    };
    float F = 0.0f;
    F += rescale();
    for (size_t i = 1; i < dsq.size(); ++i) {
        float n0 = 0.0f;
        n0 += d0 * t00;
        n0 += d1 * t10_;
        n0 *= odds0_[dsq[i]];
        float n1 = 0.0f;
        n1 += d0 * t01;
        n1 += d1 * t11_;
        n1 *= odds1_[dsq[i]];
        d0 = n0;
        d1 = n1;
        F += rescale();
    }
    float end = 0.0f;
    end += d0 * 1.0f;
    end += d1 * 1.0f;
    F += static_cast<float>(std::log(static_cast<double>(end)));

    const float len_term = static_cast<float>(L) * std::log(p1);  // logf
    const float move_term = std::log(static_cast<float>(1.0 - static_cast<double>(p1)));
    return (F + len_term) + move_term;
}

}  // namespace warpdp
