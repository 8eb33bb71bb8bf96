// Test inputs for the CUDA MSV engine: random byte profiles shaped like real
// ones (bias 10..30, costs near bias, 255 for codes that never match) with a
// preferred residue per node, and targets that follow those preferences for a
// stretch (homologs), so that high scores, the full-MSV fallback and overflow
// all occur. Plus a threaded reference so big sweeps stay quick.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "core/hmmer/hmmer_units.hpp"
#include "core/hmmer/msv/msv_profile.hpp"
#include "core/hmmer/msv/msv_reference.hpp"
#include "core/io/seq_batch.hpp"
#include "cuda_test_support.hpp"
#include "test_support.hpp"

namespace warpdp::test {

struct RandomMsvModel {
    MsvByteProfile prof;
    std::vector<uint8_t> preferred;  // preferred[k] for node k = 1..M (index 0 unused)
};

// bias = 0 draws it from 10..30 (real models: 16-18); larger ones reach the
// engine's bias > 64 path.
inline RandomMsvModel random_msv_model(int M, int bias = 0) {
    RandomMsvModel m;
    auto& p = m.prof;
    p.M = M;
    p.bias = static_cast<uint8_t>(bias > 0 ? bias : uniform(10, 30));
    p.tbm = hmmer::unbiased_byte(std::log(2.0f / (static_cast<float>(M) * static_cast<float>(M + 1))));
    p.tec = 3;
    p.cost.assign(static_cast<size_t>(p.Kp) * static_cast<size_t>(M + 1), 255);
    m.preferred.assign(static_cast<size_t>(M) + 1, 0);
    for (int k = 1; k <= M; ++k) {
        const int pref = uniform(0, 19);
        m.preferred[static_cast<size_t>(k)] = static_cast<uint8_t>(pref);
        for (int x = 0; x < p.Kp; ++x) {
            int c = 255;
            if (x == pref) c = p.bias - uniform(4, 25);          // a positive score
            else if (x < 20 || (x >= 21 && x <= 26)) c = p.bias + uniform(-4, 15);  // mostly negative
            if (x == 20 || x == 27 || x == 28) c = 255;
            p.cost[static_cast<size_t>(x) * static_cast<size_t>(M + 1) + static_cast<size_t>(k)] =
                static_cast<uint8_t>(std::clamp(c, 0, 255));
        }
    }
    return m;
}

inline uint8_t random_residue() {
    // Mostly canonical; now and then a degenerate code or '*'.
    if (uniform(0, 99) == 0) return static_cast<uint8_t>(uniform(21, 27));
    return static_cast<uint8_t>(uniform(0, 19));
}

inline std::vector<uint8_t> random_seq(size_t L) {
    std::vector<uint8_t> s(L);
    for (auto& c : s) c = random_residue();
    return s;
}

// A background sequence with `segments` stretches that follow the model's
// preferred residues (each residue mutated with probability 1/5).
inline std::vector<uint8_t> homolog_seq(const RandomMsvModel& m, size_t L, int segments, int max_seg) {
    auto s = random_seq(L);
    if (L == 0) return s;
    for (int g = 0; g < segments; ++g) {
        const int len = std::min<int>(uniform(1, max_seg), static_cast<int>(std::min<size_t>(L, m.prof.M)));
        const int k0 = uniform(1, m.prof.M - len + 1);
        const size_t i0 = static_cast<size_t>(uniform(0, static_cast<int>(L) - len));
        for (int j = 0; j < len; ++j)
            if (uniform(0, 4) != 0) s[i0 + static_cast<size_t>(j)] = m.preferred[static_cast<size_t>(k0 + j)];
    }
    return s;
}

inline void add_record(SeqBatch& b, const std::vector<uint8_t>& s) {
    b.residues.insert(b.residues.end(), s.begin(), s.end());
    std::string name = std::to_string(b.size());
    name.insert(name.begin(), 't');
    b.close_record(std::move(name), "");
}

inline size_t lognormal_length(double mu, double sigma, size_t cap) {
    std::lognormal_distribution<double> d(mu, sigma);
    return std::min<size_t>(cap, static_cast<size_t>(d(rng())));
}

// Which path the reference took, to prove each was exercised.
struct OutcomeCounts {
    uint64_t ssv_value = 0, fallback_value = 0, overflow = 0, fallback = 0;
    void add(uint16_t ssv, uint16_t ref) {
        if (ref == kMsvOverflow) ++overflow;
        if (ssv == kSsvNoResult) {
            ++fallback;
            if (ref != kMsvOverflow) ++fallback_value;
        } else if (ssv != kMsvOverflow) {
            ++ssv_value;
        }
    }
    void merge(const OutcomeCounts& o) {
        ssv_value += o.ssv_value;
        fallback_value += o.fallback_value;
        overflow += o.overflow;
        fallback += o.fallback;
    }
};

// msv_reference over a batch, split over the host's cores; optionally counts
// the path taken (one extra ssv_reference per target).
inline std::vector<uint16_t> reference_scores(const MsvByteProfile& p, const SeqBatch& b,
                                              OutcomeCounts* counts = nullptr) {
    std::vector<uint16_t> out(b.size());
    const unsigned nt = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
    std::vector<OutcomeCounts> part(nt);
    std::vector<std::thread> pool;
    for (unsigned w = 0; w < nt; ++w)
        pool.emplace_back([&, w] {
            for (size_t t = w; t < b.size(); t += nt) {
                out[t] = msv_reference(p, b.seq(t));
                if (counts) part[w].add(ssv_reference(p, b.seq(t)), out[t]);
            }
        });
    for (auto& th : pool) th.join();
    if (counts)
        for (const auto& c : part) counts->merge(c);
    return out;
}

}  // namespace warpdp::test
