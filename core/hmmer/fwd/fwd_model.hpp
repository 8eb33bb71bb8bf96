// The Forward stage's host-side decision for one target
// (docs/hmmer-filters.md §8.1):
// Forward score (nats) -> bits against filtersc -> exponential-tail P-value
// (FTAU, FLAMBDA) -> pass if P <= F3. This is the only place that
// arithmetic is written.
#pragma once

#include "core/hmmer/hmm.hpp"

namespace warpdp {

struct FwdVerdict {
    float fwdsc = 0;  // Forward score, nats (NaN where HMMER's parser raises an error)
    float bits = 0;   // against filtersc
    double p = 1;
    bool pass = false;  // p <= F3; NaN passes, as in HMMER (whose search then stops on the error)
};

FwdVerdict fwd_verdict(const Hmm& hmm, float filtersc, float fwdsc, double F3);

}  // namespace warpdp
