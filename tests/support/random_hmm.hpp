// random_hmm: the one generator of random amino HMMs, shared by the unit
// tests (brute force, Viterbi) and the benchmarks. It draws from a caller's
// generator, so tests replay it from their printed seed and benchmarks from
// a fixed one; it depends only on core/ and the standard library (no
// doctest), so bench/ may include it as "tests/support/random_hmm.hpp".
#pragma once

#include <cstddef>
#include <optional>
#include <random>

#include "core/hmmer/hmm.hpp"

namespace warpdp::test {

// A random amino HMM of M nodes: every transition group and emission row is
// drawn uniformly from [0.01, 1) and normalised. With `sharp`, each match
// emission row then has one random residue raised by sharp - 1 and is
// normalised again (sharp > 1 concentrates it, so homologs score higher);
// that draws one more number per node, even when sharp == 1.
template <class Rng>
Hmm random_hmm(int M, Rng& g, std::optional<float> sharp = std::nullopt) {
    std::uniform_real_distribution<float> u(0.01f, 1.0f);
    auto normalise = [](float* p, int n) {
        float sum = 0;
        for (int i = 0; i < n; ++i) sum += p[i];
        for (int i = 0; i < n; ++i) p[i] /= sum;
    };
    auto dirichlet = [&](float* p, int n) {
        for (int i = 0; i < n; ++i) p[i] = u(g);
        normalise(p, n);
    };
    Hmm h;
    h.name = "rnd";
    h.M = M;
    h.K = 20;
    h.t.assign(static_cast<size_t>(M) + 1, {});
    for (auto& t : h.t) {
        dirichlet(&t[kTMM], 3);
        dirichlet(&t[kTIM], 2);
        dirichlet(&t[kTDM], 2);
    }
    h.mat.assign(static_cast<size_t>(M + 1) * 20, 0.0f);
    h.ins.assign(static_cast<size_t>(M + 1) * 20, 0.0f);
    h.compo.assign(20, 0.0f);
    for (int k = 1; k <= M; ++k) {
        float* p = &h.mat[static_cast<size_t>(k) * 20];
        dirichlet(p, 20);
        if (sharp) {
            p[std::uniform_int_distribution<int>(0, 19)(g)] += *sharp - 1.0f;
            normalise(p, 20);
        }
    }
    for (int k = 0; k <= M; ++k) dirichlet(&h.ins[static_cast<size_t>(k) * 20], 20);
    return h;
}

}  // namespace warpdp::test
