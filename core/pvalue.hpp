// The two score-tail distributions hmmsearch's filters use (spec §8.1), in
// glibc double arithmetic: a Gumbel survival function (MSV, Viterbi) and an
// exponential tail (Forward). Parameters are the float STATS values widened.
#pragma once

#include <cmath>

namespace warpdp {

// P(S > x) for a Gumbel(mu, lambda). +inf gives 0, -inf gives 1 (the formula
// does this by itself; the checks only make it obvious).
inline double gumbel_surv(double x, double mu, double lambda) {
    if (std::isinf(x)) return x > 0 ? 0.0 : 1.0;
    const double y = lambda * (x - mu);
    const double ey = -std::exp(-y);
    // For tiny |ey|, 1 - exp(ey) loses all digits; -ey is the series limit.
    return std::fabs(ey) < 5e-9 ? -ey : 1.0 - std::exp(ey);
}

// P(S > x) for an exponential tail starting at tau.
inline double exp_surv(double x, double tau, double lambda) {
    if (std::isinf(x)) return x > 0 ? 0.0 : 1.0;
    return x < tau ? 1.0 : std::exp(-lambda * (x - tau));
}

}  // namespace warpdp
