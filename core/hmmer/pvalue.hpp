// The two score-tail distributions hmmsearch's filters use
// (docs/hmmer-filters.md §8.1), in glibc double arithmetic: a Gumbel survival
// function (MSV, Viterbi) and an exponential tail (Forward). Parameters are the
// float STATS values widened.
#pragma once

#include <cmath>
#include <limits>

namespace warpdp {

// hmmsearch runs with the SSE flush-to-zero bit set (impl_Init, in every
// worker thread), so a P-value that lands in the subnormal range comes out
// as exactly 0 there: a Forward score of ~1000 bits passes --F3 0 (found by
// an audit). The P-values are computed here with the default rounding mode,
// then flushed the same way.
inline double flush_subnormal(double p) { return std::fabs(p) < std::numeric_limits<double>::min() ? 0.0 : p; }

// An E-value exp(lnP) * space as hmmsearch computes it: exp's subnormal
// result is flushed (an E-value of 1e-313 prints as 0 there).
inline double hmmer_evalue(double lnP, double space) { return flush_subnormal(std::exp(lnP)) * space; }

// P(S > x) for a Gumbel(mu, lambda). With a valid lambda (> 0) +inf gives 0
// and -inf gives 1. No special cases on purpose: a model without STATS has
// mu = lambda = -99999, and then even +inf must give P = 1 as in hmmsearch.
inline double gumbel_surv(double x, double mu, double lambda) {
    const double y = lambda * (x - mu);
    const double ey = -std::exp(-y);
    // For tiny |ey|, 1 - exp(ey) loses all digits; -ey is the series limit.
    return std::fabs(ey) < 5e-9 ? flush_subnormal(-ey) : 1.0 - std::exp(ey);
}

// P(S > x) for an exponential tail starting at tau (formula as is, see above).
inline double exp_surv(double x, double tau, double lambda) {
    return x < tau ? 1.0 : flush_subnormal(std::exp(-lambda * (x - tau)));
}

}  // namespace warpdp
