// HMMER's null model (docs/hmmer-filters.md §3): background residue
// frequencies and the length-dependent null score every bit score is measured against.
#pragma once

#include <cstdint>
#include <vector>

#include "core/base/alphabet.hpp"

namespace warpdp {

// Background frequencies f_y of the K canonical residues (float, as HMMER
// stores them): Swiss-Prot 50.8 for amino, uniform 1/K for DNA/RNA.
const std::vector<float>& background_frequencies(AlphabetKind kind);

// The longest target the HMMER filters score: from 2^24 on, L + 1 is not a
// float, p1 = L/(L+1) rounds to 1 and the null score to -inf (docs/hmmer-filters.md
// §3.1). The tools refuse longer records when reading them.
inline constexpr uint64_t kHmmerMaxTargetLength = (uint64_t{1} << 24) - 1;

// Null-model log-likelihood (nats) of a target of length L, 1 <= L <=
// kHmmerMaxTargetLength (InternalError beyond): L*log(p1) + log(1-p1) with
// p1 = L/(L+1), in double, rounded once to float.
float null_score(uint64_t L);

}  // namespace warpdp
