// Local multihit profile configuration. The float/double mix follows
// docs/hmmer-filters.md §4 operation by operation: changing a single
// widening changes last bits of scores and, eventually, filter decisions.
#include "core/hmmer/profile.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "core/base/errors.hpp"
#include "core/hmmer/background.hpp"

namespace warpdp {

Profile build_profile(const Hmm& hmm) {
    const Alphabet& abc = Alphabet::of(hmm.alph);
    const std::vector<float>& f = background_frequencies(hmm.alph);
    const float ninf = -std::numeric_limits<float>::infinity();
    const int M = hmm.M;
    const size_t Mu = static_cast<size_t>(M);

    Profile p;
    p.M = M;
    p.alph = hmm.alph;
    p.K = abc.K();
    p.Kp = abc.Kp();

    p.tbm = local_entry_scores(match_occupancy(hmm));
    // A NaN here would reach the integer profiles as an undefined cast.
    if (const int k = first_bad_entry_score(p.tbm))
        throw InternalError("local entry score of node " + std::to_string(k) + " is " +
                            std::to_string(p.tbm[static_cast<size_t>(k)]) + ": a model HmmReader refuses");

    // docs/hmmer-filters.md §4.2
    p.tsc.assign(Mu + 1, {});
    for (auto& row : p.tsc) row.fill(ninf);
    for (size_t k = 1; k + 1 <= Mu; ++k)
        for (int t = 0; t < kNumTransitions; ++t)
            p.tsc[k][static_cast<size_t>(t)] = static_cast<float>(std::log(static_cast<double>(hmm.t[k][static_cast<size_t>(t)])));

    // docs/hmmer-filters.md §4.3 and §2.3
    const int K = p.K, Kp = p.Kp;
    p.msc.assign((Mu + 1) * static_cast<size_t>(Kp), ninf);
    for (int k = 1; k <= M; ++k) {
        float* s = p.msc.data() + static_cast<size_t>(k) * static_cast<size_t>(Kp);
        for (int x = 0; x < K; ++x)
            s[x] = static_cast<float>(std::log(static_cast<double>(hmm.match(k, x)) / static_cast<double>(f[static_cast<size_t>(x)])));
        for (int x = K + 1; x < Kp - 2; ++x) {  // degenerate codes: background-weighted mean score
            float num = 0.0f, den = 0.0f;
            for (int y = 0; y < K; ++y) {
                if (!abc.degenerate_has(x, y)) continue;
                num = num + s[y] * f[static_cast<size_t>(y)];
                den = den + f[static_cast<size_t>(y)];
            }
            s[x] = num / den;
        }
        // gap, '*' and '~' stay -inf
    }
    return p;
}

std::vector<float> match_occupancy(const Hmm& hmm) {
    const size_t Mu = static_cast<size_t>(hmm.M);
    std::vector<float> occ(Mu + 1, 0.0f);
    occ[1] = hmm.t[0][kTMI] + hmm.t[0][kTMM];
    for (size_t k = 2; k <= Mu; ++k) {
        const auto& t = hmm.t[k - 1];
        const float stay = occ[k - 1] * (t[kTMM] + t[kTMI]);
        occ[k] = static_cast<float>(static_cast<double>(stay) +
                                    (1.0 - static_cast<double>(occ[k - 1])) * static_cast<double>(t[kTDM]));
    }
    return occ;
}

// docs/hmmer-filters.md §4.1: the local entry distribution weighted by the
// number of nodes an entry at k can still cover.
std::vector<float> local_entry_scores(const std::vector<float>& occ) {
    const size_t Mu = occ.size() - 1;
    const int M = static_cast<int>(Mu);
    float Z = 0.0f;
    for (size_t k = 1; k <= Mu; ++k) Z += occ[k] * static_cast<float>(M - static_cast<int>(k) + 1);
    std::vector<float> tbm(Mu + 1, -std::numeric_limits<float>::infinity());
    for (size_t k = 1; k <= Mu; ++k) tbm[k] = static_cast<float>(std::log(static_cast<double>(occ[k] / Z)));
    return tbm;
}

int first_bad_entry_score(const std::vector<float>& tbm) {
    for (size_t k = 1; k < tbm.size(); ++k)
        if (std::isnan(tbm[k]) || tbm[k] == std::numeric_limits<float>::infinity()) return static_cast<int>(k);
    return 0;
}

float profile_pmove(uint64_t L) {
    return 3.0f / (static_cast<float>(L) + 2.0f + 1.0f);
}

}  // namespace warpdp
