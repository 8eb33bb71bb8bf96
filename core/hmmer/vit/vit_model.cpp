// Viterbi-stage model set-up and per-target decision, in HMMER's order of float
// and double operations (vit_nats: the final conversion of
// docs/hmmer-filters.md §6.2; then the bits and P-value of §8.1 there), so
// values equal the ones hmmsearch compares.
#include "core/hmmer/vit/vit_model.hpp"

#include "core/hmmer/msv/msv_score.hpp"
#include "core/hmmer/pvalue.hpp"

namespace warpdp {

VitModel::VitModel(const Profile& prof) : words(build_vit_profile(prof)) {}

VitVerdict vit_verdict(const Hmm& hmm, float filtersc, uint32_t raw, uint64_t L, double F2) {
    VitVerdict v;
    v.vfsc = vit_nats(raw, L);
    v.bits = score_bits(v.vfsc, filtersc);
    v.p = gumbel_surv(v.bits, hmm.evparam[kVitMu], hmm.evparam[kVitLambda]);
    v.pass = !(v.p > F2);
    return v;
}

}  // namespace warpdp
