// The float scoring profile hmmsearch configures from an HMM in local multihit
// mode (docs/hmmer-filters.md §4): entry scores, transition scores and emission
// scores for all Kp codes. The MSV byte profile and the float reference filters
// are built from this, never from the HMM directly.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/hmmer/hmm.hpp"

namespace warpdp {

struct Profile {
    int M = 0;
    AlphabetKind alph = AlphabetKind::amino;
    int K = 20;   // canonical residues
    int Kp = 29;  // all codes
    // tbm[k]: B->M_k local entry score (nats), k = 1..M; tbm[0] = -inf.
    std::vector<float> tbm;
    // tsc[k][HmmTransition] = log t_k, valid for k = 1..M-1 (others -inf).
    std::vector<std::array<float, kNumTransitions>> tsc;
    // msc[k * Kp + x]: match emission score of code x at node k (k = 1..M).
    // Insert emission scores are 0 (k < M) and are not stored.
    std::vector<float> msc;

    float match_score(int k, int x) const noexcept {
        return msc[static_cast<size_t>(k) * static_cast<size_t>(Kp) + static_cast<size_t>(x)];
    }
};

// Configures the local multihit profile of `hmm` (p7_LOCAL).
Profile build_profile(const Hmm& hmm);

// HMMER's match occupancy (p7_hmm_CalculateOccupancy): occ[k], k = 1..M, the
// probability that a global path visits M_k; occ[0] = 0. Only transition
// rows whose m->m + m->i exceed 1 can take it outside [0, 1].
std::vector<float> match_occupancy(const Hmm& hmm);

// The local entry scores B->M_k from the occupancy (p7_ProfileConfig),
// k = 1..M; [0] = -inf. NaN or +inf where occ/Z is negative or not finite,
// which HmmReader refuses, so a model it read never gives one.
std::vector<float> local_entry_scores(const std::vector<float>& occ);

// The first node k whose entry score tbm[k] is NaN or +inf, or 0 if none is.
int first_bad_entry_score(const std::vector<float>& tbm);

// E->C and E->J score in multihit mode: the float -ln 2.
inline constexpr float kProfileTec = -0.6931472f;

// N/C/J move probability for a target of length L: 3/(L+3) in float ops.
float profile_pmove(uint64_t L);

}  // namespace warpdp
