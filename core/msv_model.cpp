// Per-model set-up and the per-target MSV/bias decision, in the order of
// HMMER's pipeline so the float values are the ones hmmsearch compares.
#include "core/msv_model.hpp"

#include "core/background.hpp"
#include "core/msv_score.hpp"
#include "core/pvalue.hpp"

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

MsvVerdict msv_verdict(const MsvModel& model, std::span<const uint8_t> dsq, uint16_t raw, double F1, bool with_bias) {
    MsvVerdict v = msv_stage_verdict(model, raw, dsq.size(), F1);
    if (with_bias && v.pass_msv) {
        const double mu = model.hmm.evparam[kMsvMu];
        const double lambda = model.hmm.evparam[kMsvLambda];
        v.filtersc = model.bias.filter_score(dsq);
        v.bias_bits = score_bits(v.usc, v.filtersc);
        v.bias_p = gumbel_surv(v.bias_bits, mu, lambda);
        v.pass_bias = !(v.bias_p > F1);
    }
    return v;
}

}  // namespace warpdp
