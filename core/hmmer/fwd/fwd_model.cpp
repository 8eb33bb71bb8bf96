// The Forward filter's decision for one target: its score in bits, P-value
// and pass, in hmmsearch's float/double order.
#include "core/hmmer/fwd/fwd_model.hpp"

#include "core/hmmer/msv/msv_score.hpp"
#include "core/hmmer/pvalue.hpp"

namespace warpdp {

FwdVerdict fwd_verdict(const Hmm& hmm, float filtersc, float fwdsc, double F3) {
    FwdVerdict v;
    v.fwdsc = fwdsc;
    v.bits = score_bits(fwdsc, filtersc);
    v.p = exp_surv(v.bits, hmm.evparam[kFwdTau], hmm.evparam[kFwdLambda]);
    v.pass = !(v.p > F3);
    return v;
}

}  // namespace warpdp
