// A profile HMM as read from a HMMER3 save file: probabilities only, no
// scores. Everything the filters need is derived from this (profile.hpp,
// msv_profile.hpp, bias_filter.hpp), so it stays a plain value type.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "core/base/alphabet.hpp"

namespace warpdp {

// Transition order of the file and of Hmm::t.
enum HmmTransition : int { kTMM = 0, kTMI, kTMD, kTIM, kTII, kTDM, kTDD, kNumTransitions };

// Order of Hmm::evparam, as on the STATS lines.
enum HmmEvParam : int { kMsvMu = 0, kMsvLambda, kVitMu, kVitLambda, kFwdTau, kFwdLambda };

inline constexpr float kEvParamUnset = -99999.0f;

struct Hmm {
    std::string name, acc, desc;
    int M = 0;                          // nodes 1..M
    AlphabetKind alph = AlphabetKind::amino;
    int K = 20;                         // canonical residues of alph
    // t[k][HmmTransition], k = 0..M (node 0 = begin), probabilities.
    std::vector<std::array<float, kNumTransitions>> t;
    // Match (k = 1..M) and insert (k = 0..M) emission probabilities, row k:
    // mat[k * K + x]. Row 0 of mat is {1, 0, ...} by convention; never scored.
    std::vector<float> mat;
    std::vector<float> ins;
    // Mean match composition (COMPO line); all zeros when the file has none,
    // which is what hmmsearch then uses in the bias filter.
    std::vector<float> compo;
    bool has_compo = false;
    // STATS values; kEvParamUnset when the model has no STATS lines.
    std::array<float, 6> evparam{kEvParamUnset, kEvParamUnset, kEvParamUnset,
                                 kEvParamUnset, kEvParamUnset, kEvParamUnset};
    bool has_stats = false;
    char format_version = 'f';          // the letter of HMMER3/<v>

    // What the post-filter stages' outputs show (docs/hmmer-filters.md §16.5).
    // Per-node annotation, index k = 1..M behind a blank at index 0; each is
    // empty when the file does not carry it (§1.4: RF/MM/CS no; consensus
    // only with CONS no in 3/e-3/f, derived from the emissions before 3/e).
    std::string consensus, rf, mm, cs;
    // Pfam score cutoffs (GA, TC, NC lines): per sequence, per domain, bits.
    struct Cutoff {
        bool set = false;
        float seq = 0, dom = 0;
    };
    Cutoff ga, tc, nc;

    float match(int k, int x) const noexcept { return mat[static_cast<size_t>(k) * static_cast<size_t>(K) + static_cast<size_t>(x)]; }
    float insert(int k, int x) const noexcept { return ins[static_cast<size_t>(k) * static_cast<size_t>(K) + static_cast<size_t>(x)]; }
};

}  // namespace warpdp
