// Shared by the Forward-filter tests (CPU engine, CUDA engine): targets that
// reach every path of the parser, and an exact comparison of scores.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/hmmer/hmm.hpp"
#include "core/io/seq_batch.hpp"
#include "vit_random.hpp"

namespace warpdp::test {

// Equal bit for bit, or both NaN (the parser's error outcome).
inline bool same_score(float a, float b) {
    return std::isnan(a) ? std::isnan(b) : std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
}

// Targets of length >= 1: a single residue, only -inf codes (the parser's
// "underflow" error), homologs sampled from `h` (large scores: many
// rescalings), random codes with degenerate and -inf ones.
inline std::vector<std::vector<uint8_t>> fwd_targets_for(const Hmm& h, int n_hom, int max_rand) {
    std::vector<std::vector<uint8_t>> s;
    s.push_back(random_vit_codes(1));
    s.push_back({27});
    s.push_back({20, 28, 27, 20});
    s.push_back({static_cast<uint8_t>(uniform(0, 19))});
    for (int i = 0; i < n_hom; ++i) {
        auto x = sample_homolog(h, 60);
        if (!x.empty()) s.push_back(std::move(x));
    }
    for (int i = 0; i < 6; ++i) s.push_back(random_vit_codes(static_cast<size_t>(uniform(1, max_rand)), uniform(0, 30)));
    return s;
}

inline SeqBatch fwd_batch(const std::vector<std::vector<uint8_t>>& seqs) {
    SeqBatch b;
    for (size_t i = 0; i < seqs.size(); ++i) {
        b.residues.insert(b.residues.end(), seqs[i].begin(), seqs[i].end());
        b.close_record("s" + std::to_string(i), "");
    }
    return b;
}

}  // namespace warpdp::test
