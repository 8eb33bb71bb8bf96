// Helpers of the benchmarks of the post-filter stages: a homolog of a model,
// so the envelopes and regions look like those of real hits.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "core/hmmer/hmm.hpp"

namespace warpdp::bench {

// A target of L residues: one domain sampled from h's match states (nodes
// a..b with occasional indels, at most 0.7 L long) in random flanks.
inline std::vector<uint8_t> homolog(const Hmm& h, size_t L, std::mt19937_64& g) {
    std::uniform_int_distribution<int> aa(0, 19), pct(0, 99);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    const int span = std::min(h.M, static_cast<int>(0.7 * static_cast<double>(L)));
    const int a = std::uniform_int_distribution<int>(1, h.M - span + 1)(g);
    std::vector<uint8_t> dom;
    for (int k = a; k < a + span; ++k) {
        const int r = pct(g);
        if (r < 5) continue;                                     // deletion
        if (r < 10) dom.push_back(static_cast<uint8_t>(aa(g)));  // insertion
        float p = u(g);
        int x = 0;
        for (; x < 19; ++x)
            if ((p -= h.match(k, x)) <= 0.0f) break;
        dom.push_back(static_cast<uint8_t>(x));
    }
    if (dom.size() > L) dom.resize(L);
    std::vector<uint8_t> s;
    const size_t left = (L - dom.size()) / 2;
    for (size_t n = 0; n < left; ++n) s.push_back(static_cast<uint8_t>(aa(g)));
    s.insert(s.end(), dom.begin(), dom.end());
    while (s.size() < L) s.push_back(static_cast<uint8_t>(aa(g)));
    return s;
}

}  // namespace warpdp::bench
