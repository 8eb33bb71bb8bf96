// Test inputs and helpers for the CUDA Viterbi engine: a threaded scalar
// reference (big sweeps stay quick), batches that mix homologs sampled from
// the model (high scores, overflow), random codes incl. the -inf codes
// 20/27/28 (no path) and chosen lengths, and shuffled subsets of a chunk.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

#include "core/hmmer/hmm.hpp"
#include "core/hmmer/vit/vit_profile.hpp"
#include "core/hmmer/vit/vit_reference.hpp"
#include "core/io/seq_batch.hpp"
#include "test_support.hpp"
#include "vit_random.hpp"

namespace warpdp::test {

inline void add_vit_record(SeqBatch& b, const std::vector<uint8_t>& s) {
    b.residues.insert(b.residues.end(), s.begin(), s.end());
    b.close_record("t" + std::to_string(b.size()), "");
}

// vit_reference over the listed targets of a batch, split over the host's cores.
inline std::vector<uint32_t> vit_reference_scores(const VitWordProfile& p, const SeqBatch& b,
                                                  const std::vector<uint32_t>& which) {
    std::vector<uint32_t> out(which.size());
    const unsigned nt = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (unsigned w = 0; w < nt; ++w)
        pool.emplace_back([&, w] {
            for (size_t j = w; j < which.size(); j += nt) out[j] = vit_reference(p, b.seq(which[j]));
        });
    for (auto& th : pool) th.join();
    return out;
}

// Every index once, in random order, or a random subset in random order.
inline std::vector<uint32_t> shuffled_subset(size_t n, bool all) {
    std::vector<uint32_t> w;
    for (uint32_t i = 0; i < n; ++i)
        if (all || uniform(0, 2) != 0) w.push_back(i);
    std::shuffle(w.begin(), w.end(), rng());
    return w;
}

// Homologs, random codes and edge lengths for one model.
inline SeqBatch vit_sweep_batch(const Hmm& h, int n_random, size_t max_random_len) {
    SeqBatch b;
    for (size_t L : {0, 1, 2, 3, 31, 32, 33, 64, 65}) {
        add_vit_record(b, random_vit_codes(L, 10));
        add_vit_record(b, random_vit_codes(L, 0));
    }
    add_vit_record(b, std::vector<uint8_t>(5, 20));  // only -inf codes: no path
    for (int i = 0; i < n_random; ++i) {
        const int kind = uniform(0, 2);
        if (kind == 0) add_vit_record(b, random_vit_codes(static_cast<size_t>(uniform(1, static_cast<int>(max_random_len))), 10));
        else add_vit_record(b, sample_homolog(h, static_cast<size_t>(uniform(0, 60))));
    }
    return b;
}

}  // namespace warpdp::test
