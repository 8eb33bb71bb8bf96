// Random inputs for the Viterbi-filter tests: HMMs with Dirichlet-like
// parameters (optionally sharpened so homologs score high enough to
// overflow the int16 filter), sequences sampled from a model's match
// states, and random code strings including the -inf codes 20/27/28.
#pragma once

#include <cstdint>
#include <vector>

#include "core/hmmer/hmm.hpp"
#include "core/hmmer/vit/vit_profile.hpp"
#include "core/hmmer/vit/vit_word16.hpp"
#include "random_hmm.hpp"
#include "test_support.hpp"

namespace warpdp::test {

inline float frand(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng()); }

// A random amino HMM of M nodes (random_hmm.hpp). sharp > 1 concentrates
// each match emission on one residue (higher homolog scores).
inline Hmm random_vit_hmm(int M, float sharp = 1.0f) { return random_hmm(M, rng(), sharp); }

// Random codes: mostly canonical, some degenerate, some -inf (20, 27, 28).
inline std::vector<uint8_t> random_vit_codes(size_t L, int odd_per_100 = 10) {
    std::vector<uint8_t> x(L);
    for (auto& c : x) c = static_cast<uint8_t>(uniform(0, 99) < odd_per_100 ? uniform(20, 28) : uniform(0, 19));
    return x;
}

// Draw one residue from node k's match emissions.
inline uint8_t sample_match(const Hmm& h, int k) {
    float r = frand(0.0f, 1.0f);
    for (int x = 0; x < 20; ++x) {
        r -= h.match(k, x);
        if (r <= 0) return static_cast<uint8_t>(x);
    }
    return 19;
}

// A homolog: random flanks around match-state samples of nodes a..b, with
// occasional insertions and deletions.
inline std::vector<uint8_t> sample_homolog(const Hmm& h, size_t flank) {
    std::vector<uint8_t> s = random_vit_codes(static_cast<size_t>(uniform(0, static_cast<int>(flank))), 2);
    const int a = uniform(1, h.M);
    const int b = uniform(a, h.M);
    for (int k = a; k <= b; ++k) {
        const int r = uniform(0, 19);
        if (r == 0) continue;                                              // deletion
        if (r == 1) s.push_back(static_cast<uint8_t>(uniform(0, 19)));    // insertion
        s.push_back(sample_match(h, k));
    }
    const auto tail = random_vit_codes(static_cast<size_t>(uniform(0, static_cast<int>(flank))), 2);
    s.insert(s.end(), tail.begin(), tail.end());
    return s;
}

// Rewrites every B->M word of `wp` (by bisection) so that the 16-bit path's
// longest safe target length is just above `at_least`: targets near it sit
// at the edge of core/hmmer/vit/vit_word16's argument and either side of the routing.
inline Vit16Plan limit_safe_length(VitWordProfile& wp, uint64_t at_least) {
    auto with_entry = [&](int tbm) {
        for (int k = 1; k <= wp.M; ++k)
            wp.trans[static_cast<size_t>(k) * kVitNumTrans + kVBM] = static_cast<int16_t>(tbm);
        return vit16_plan(wp);
    };
    int lo = -32768, hi = 0;  // max_len(lo) small or unsafe, max_len(hi) larger
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        const Vit16Plan p = with_entry(mid);
        (p.ok && p.max_len > at_least ? hi : lo) = mid;
    }
    return with_entry(hi);
}

}  // namespace warpdp::test
