// The two score-tail distributions hmmsearch's filters use (spec §8.1), in
// glibc double arithmetic: a Gumbel survival function (MSV, Viterbi) and an
// exponential tail (Forward). Parameters are the float STATS values widened.
#pragma once

#include <cmath>

namespace warpdp {

// P(S > x) for a Gumbel(mu, lambda). With a valid lambda (> 0) +inf gives 0
// and -inf gives 1. No special cases on purpose: a model without STATS has
// mu = lambda = -99999, and then even +inf must give P = 1 as in hmmsearch.
inline double gumbel_surv(double x, double mu, double lambda) {
    const double y = lambda * (x - mu);
    const double ey = -std::exp(-y);
    // For tiny |ey|, 1 - exp(ey) loses all digits; -ey is the series limit.
    return std::fabs(ey) < 5e-9 ? -ey : 1.0 - std::exp(ey);
}

// P(S > x) for an exponential tail starting at tau (formula as is, see above).
inline double exp_surv(double x, double tau, double lambda) {
    return x < tau ? 1.0 : std::exp(-lambda * (x - tau));
}

}  // namespace warpdp
