// Per-model set-up and the per-target MSV/bias decision, in the order of
// HMMER's pipeline so the float values are the ones hmmsearch compares.
#include "core/hmmer/msv/msv_model.hpp"

#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/background.hpp"
#include "core/hmmer/msv/msv_score.hpp"
#include "core/hmmer/pvalue.hpp"

namespace warpdp {

MsvModel::MsvModel(Hmm h)
    : hmm(std::move(h)), prof(build_profile(hmm)), bytes(build_msv_profile(prof)), bias(hmm) {}

MsvVerdict msv_stage_verdict(const MsvModel& model, uint16_t raw, uint64_t L, double F1) {
    const double mu = model.hmm.evparam[kMsvMu];
    const double lambda = model.hmm.evparam[kMsvLambda];
    MsvVerdict v;
    v.usc = msv_nats(raw, L);
    v.nullsc = null_score(L);
    v.msv_bits = score_bits(v.usc, v.nullsc);
    v.msv_p = gumbel_surv(v.msv_bits, mu, lambda);
    v.pass_msv = !(v.msv_p > F1);  // NaN passes, as in HMMER
    v.filtersc = v.nullsc;
    v.bias_bits = v.msv_bits;
    v.bias_p = v.msv_p;
    v.pass_bias = v.pass_msv;
    return v;
}

namespace {

// The bias stage's verdict from the filter's score (filtersc replaces the
// null score; P-value against F1 again).
void apply_bias(const MsvModel& model, MsvVerdict& v, float filtersc, double F1) {
    const double mu = model.hmm.evparam[kMsvMu];
    const double lambda = model.hmm.evparam[kMsvLambda];
    v.filtersc = filtersc;
    v.bias_bits = score_bits(v.usc, v.filtersc);
    v.bias_p = gumbel_surv(v.bias_bits, mu, lambda);
    v.pass_bias = !(v.bias_p > F1);
}

}  // namespace

MsvVerdict msv_verdict(const MsvModel& model, std::span<const uint8_t> dsq, uint16_t raw, double F1, bool with_bias) {
    MsvVerdict v = msv_stage_verdict(model, raw, dsq.size(), F1);
    if (with_bias && v.pass_msv) apply_bias(model, v, model.bias.filter_score(dsq), F1);
    return v;
}

void msv_bias_stage(const MsvModel& model, std::span<const std::span<const uint8_t>> dsqs,
                    std::span<MsvVerdict> verdicts, double F1) {
    if (dsqs.size() != verdicts.size()) throw InternalError("msv_bias_stage: one verdict per target");
    std::vector<std::span<const uint8_t>> passers;
    std::vector<size_t> at;
    for (size_t i = 0; i < dsqs.size(); ++i)
        if (verdicts[i].pass_msv) {
            passers.push_back(dsqs[i]);
            at.push_back(i);
        }
    std::vector<float> filtersc(passers.size());
    model.bias.filter_scores(passers, filtersc);
    for (size_t j = 0; j < at.size(); ++j) apply_bias(model, verdicts[at[j]], filtersc[j], F1);
}

}  // namespace warpdp
