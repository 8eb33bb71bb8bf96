// Helpers of the gpu-sw tests: sequences as matrix codes, random matrices
// (written as NCBI text and read back, so the parser is exercised too),
// random gap costs, and related sequences (a copy with substitutions and
// indels, so that alignments carry gaps).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/sw/sw_engine.hpp"
#include "core/sw/sw_matrix.hpp"
#include "test_support.hpp"

namespace warpdp::test {

inline constexpr const char* kAminoLetters = "ACDEFGHIKLMNPQRSTVWY";

inline std::vector<uint8_t> sw_codes(const SwMatrix& m, const std::string& letters) {
    std::vector<uint8_t> c;
    c.reserve(letters.size());
    for (char ch : letters) c.push_back(m.code_of(static_cast<unsigned char>(ch)));
    return c;
}

// Random codes of `m`'s first `alphabet` letters (all when 0).
inline std::vector<uint8_t> random_codes(const SwMatrix& m, size_t n, int alphabet = 0) {
    const int k = alphabet > 0 ? alphabet : m.size();
    std::vector<uint8_t> c(n);
    for (auto& x : c) x = static_cast<uint8_t>(uniform(0, k - 1));
    return c;
}

// A relative of s: each residue substituted with probability ~1/6, and
// short insertions and deletions every ~12 residues.
inline std::vector<uint8_t> mutated(const SwMatrix& m, const std::vector<uint8_t>& s) {
    std::vector<uint8_t> out;
    for (size_t i = 0; i < s.size(); ++i) {
        const int r = uniform(0, 23);
        if (r == 0) continue;                                     // deletion
        if (r == 1)
            for (int k = uniform(1, 4); k > 0; --k) out.push_back(static_cast<uint8_t>(uniform(0, m.size() - 1)));
        out.push_back(r <= 5 ? static_cast<uint8_t>(uniform(0, m.size() - 1)) : s[i]);
    }
    return out;
}

// A random matrix of `k` letters ending in '*', entries in [lo, hi], not
// necessarily symmetric.
inline SwMatrix random_matrix(int k, int lo, int hi) {
    const std::string letters = std::string("ACDEFGHIKLMNPQRSTVWYBZXJOU").substr(0, static_cast<size_t>(k - 1)) + "*";
    std::string text = "# random\n ";
    for (char c : letters) text += std::string(" ") + c;
    text += "\n";
    for (char a : letters) {
        text += a;
        for (size_t b = 0; b < letters.size(); ++b) text += " " + std::to_string(uniform(lo, hi));
        text += "\n";
    }
    return SwMatrix::parse_ncbi(text, "random", "random");
}

inline SwScoring random_gaps(const SwMatrix& m) {
    SwScoring s;
    s.matrix = &m;
    s.gap_open = uniform(1, 14);
    s.gap_extend = uniform(0, s.gap_open);
    return s;
}

}  // namespace warpdp::test
