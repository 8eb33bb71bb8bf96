// Bias filter. The state-0 transitions come from the per-target length
// (p1 = L/(L+1)), not the 400/401 HMMER's set-up intends: hmmsearch resets
// them per target and its pass counts show it, so we do the same.
#include "core/hmmer/bias/bias_filter.hpp"

#include <cmath>

#include "core/base/errors.hpp"
#include "core/hmmer/background.hpp"
#include "core/hmmer/bias/bias_step.hpp"

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

namespace {

float length_p1(uint64_t L) { return static_cast<float>(L) / static_cast<float>(L + 1); }

// From the Forward sum to the filter score: the length model's terms.
float with_length_terms(float F, uint64_t L, float p1) {
    const float len_term = static_cast<float>(L) * std::log(p1);  // logf
    const float move_term = std::log(static_cast<float>(1.0 - static_cast<double>(p1)));
    return (F + len_term) + move_term;
}

// Scaled Forward: each row rescaled by its maximum, the log scale factors summed.
float serial_forward(const bias_lanes::Model& m, const uint8_t* dsq, uint64_t L, float p1) {
    const float t00 = p1, t01 = 1.0f - p1;
    float d0, d1;
    float F = bias_step::first(m.odds0, m.odds1, dsq[0], d0, d1);
    for (uint64_t i = 1; i < L; ++i)
        F += bias_step::next(m.odds0, m.odds1, dsq[i], t00, t01, m.t10, m.t11, d0, d1);
    F += bias_step::end(d0, d1);
    return F;
}

void forward_serial(const bias_lanes::Model& m, const uint8_t* const* seqs, const uint64_t* lens, const float* p1s,
                    size_t n, float* out) {
    for (size_t i = 0; i < n; ++i) out[i] = serial_forward(m, seqs[i], lens[i], p1s[i]);
}

#if defined(__x86_64__)
// The lanes pay off from two targets on; their odds tables hold kMaxCodes codes.
void forward_lanes(const bias_lanes::Model& m, const uint8_t* const* seqs, const uint64_t* lens, const float* p1s,
                   size_t n, float* out) {
    if (n < 2 || m.Kp > bias_lanes::kMaxCodes) return forward_serial(m, seqs, lens, p1s, n, out);
    bias_lanes::forward_avx2(m, seqs, lens, p1s, n, out);
}
#endif

constexpr BiasCpuVariant kVariants[] = {
#if defined(__x86_64__)
    {"bias_lanes_avx2_f32", CpuIsa::avx2, {forward_lanes}},
#endif
    {"bias_serial_base_f32", CpuIsa::base, {forward_serial}},
};

}  // namespace

std::span<const BiasCpuVariant> bias_cpu_variants() { return kVariants; }

float BiasFilter::filter_score(std::span<const uint8_t> dsq) const {
    if (dsq.empty()) throw InternalError("bias filter called on an empty sequence");
    const uint64_t L = dsq.size();
    const float p1 = length_p1(L);
    const bias_lanes::Model m{odds0_.data(), odds1_.data(), Kp_, t10_, t11_};
    return with_length_terms(serial_forward(m, dsq.data(), L, p1), L, p1);
}

void BiasFilter::filter_scores(std::span<const std::span<const uint8_t>> dsqs, std::span<float> out) const {
    filter_scores(dsqs, out, choose_variant<bias_cpu_variants>());
}

void BiasFilter::filter_scores(std::span<const std::span<const uint8_t>> dsqs, std::span<float> out,
                               const BiasCpuVariant& v) const {
    if (out.size() != dsqs.size()) throw InternalError("bias filter: one score per target");
    require_supported(v);
    std::vector<const uint8_t*> seqs(dsqs.size());
    std::vector<uint64_t> lens(dsqs.size());
    std::vector<float> p1s(dsqs.size());
    for (size_t i = 0; i < dsqs.size(); ++i) {
        if (dsqs[i].empty()) throw InternalError("bias filter called on an empty sequence");
        seqs[i] = dsqs[i].data();
        lens[i] = dsqs[i].size();
        p1s[i] = length_p1(lens[i]);
    }
    const bias_lanes::Model m{odds0_.data(), odds1_.data(), Kp_, t10_, t11_};
    v.kernels.forward(m, seqs.data(), lens.data(), p1s.data(), dsqs.size(), out.data());
    for (size_t i = 0; i < dsqs.size(); ++i) out[i] = with_length_terms(out[i], lens[i], p1s[i]);
}

}  // namespace warpdp
