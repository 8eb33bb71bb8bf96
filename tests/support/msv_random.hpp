// Random MSV byte profiles and target sequences for differential tests, with
// enough structure that every outcome class occurs: SSV results, the full-MSV
// fallback (J state or the 127 test), and overflow. Draws only from the
// seeded test rng, so a replayed seed reproduces every input.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/hmmer/hmmer_units.hpp"
#include "core/hmmer/msv/msv_profile.hpp"
#include "test_support.hpp"

namespace warpdp::test {

inline constexpr int kMsvKp = 29;
inline constexpr int kGapCode = 20, kStopCode = 27, kMissingCode = 28;

// bias < 0: drawn from 10..30 as in real models; otherwise used as given.
inline MsvByteProfile random_msv_profile(int M, int bias = -1) {
    MsvByteProfile p;
    p.M = M;
    p.Kp = kMsvKp;
    p.bias = static_cast<uint8_t>(bias < 0 ? uniform(10, 30) : bias);
    p.tbm = hmmer::unbiased_byte(std::log(2.0f / (static_cast<float>(M) * static_cast<float>(M + 1))));
    p.tec = 3;
    const int b = p.bias;
    p.cost.assign(static_cast<size_t>(kMsvKp) * static_cast<size_t>(M + 1), 255);
    auto at = [&](int x, int k) -> uint8_t& { return p.cost[static_cast<size_t>(x) * static_cast<size_t>(M + 1) + k]; };
    const bool special_prohibited = uniform(0, 9) < 8;
    for (int k = 1; k <= M; ++k) {
        // Most residues score a little below zero; one or two per node are
        // favoured (cost well below bias), as in a real match state.
        for (int x = 0; x < 20; ++x) at(x, k) = static_cast<uint8_t>(std::clamp(b + uniform(-5, 15), 0, 255));
        for (int f = uniform(1, 2); f > 0; --f) at(uniform(0, 19), k) = static_cast<uint8_t>(uniform(0, std::max(0, b - 3)));
        if (uniform(0, 99) == 0) at(uniform(0, 19), k) = 255;
        for (int x = 21; x <= 26; ++x) at(x, k) = static_cast<uint8_t>(std::clamp(b + uniform(-15, 15), 0, 255));
        for (int x : {kGapCode, kStopCode, kMissingCode})
            at(x, k) = special_prohibited ? 255 : static_cast<uint8_t>(std::clamp(b + uniform(-15, 15), 0, 255));
    }
    return p;
}

// Kinds of target the generator mixes.
enum class SeqKind { random, homolog, special };

inline std::vector<uint8_t> random_residues(size_t L) {
    std::vector<uint8_t> s(L);
    for (auto& c : s) c = static_cast<uint8_t>(uniform(0, 99) < 97 ? uniform(0, 19) : uniform(21, 26));
    return s;
}

// A target of length L holding 1..3 segments sampled from the profile's
// lowest-cost residues, so that high scores, J use and overflow all occur.
inline std::vector<uint8_t> homolog_residues(const MsvByteProfile& p, size_t L) {
    std::vector<uint8_t> s = random_residues(L);
    if (L == 0) return s;
    const int fidelity = uniform(40, 95);  // % of positions taking the best residue
    for (int seg = uniform(1, 3); seg > 0; --seg) {
        const int k0 = uniform(1, p.M);
        const size_t start = static_cast<size_t>(uniform(0, static_cast<int>(std::min<size_t>(L - 1, 1u << 30))));
        const int len = uniform(1, std::min(p.M - k0 + 1, 120));
        for (int d = 0; d < len && start + d < L; ++d) {
            if (uniform(0, 99) >= fidelity) continue;
            int best = 0;
            for (int x = 1; x < 20; ++x)
                if (p.cost_at(x, k0 + d) < p.cost_at(best, k0 + d)) best = x;
            s[start + d] = static_cast<uint8_t>(best);
        }
    }
    return s;
}

// Random or homologous residues sprinkled with gap, '*' and '~' codes, or
// (one time in four) nothing but one of them.
inline std::vector<uint8_t> special_residues(const MsvByteProfile& p, size_t L) {
    std::vector<uint8_t> s = uniform(0, 1) ? random_residues(L) : homolog_residues(p, L);
    const int codes[3] = {kGapCode, kStopCode, kMissingCode};
    if (uniform(0, 3) == 0) {
        std::fill(s.begin(), s.end(), static_cast<uint8_t>(codes[uniform(0, 2)]));
    } else {
        for (auto& c : s)
            if (uniform(0, 19) == 0) c = static_cast<uint8_t>(codes[uniform(0, 2)]);
    }
    return s;
}

inline std::vector<uint8_t> random_target(const MsvByteProfile& p, size_t L, SeqKind kind) {
    switch (kind) {
        case SeqKind::random: return random_residues(L);
        case SeqKind::homolog: return homolog_residues(p, L);
        case SeqKind::special: return special_residues(p, L);
    }
    return {};
}

inline SeqKind random_kind() {
    const int r = uniform(0, 9);
    return r < 3 ? SeqKind::random : (r < 8 ? SeqKind::homolog : SeqKind::special);
}

}  // namespace warpdp::test
