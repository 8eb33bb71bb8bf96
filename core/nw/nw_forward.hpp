// The forward forms of both distances: one DP row, no move matrix, no
// traceback. Each cell carries, besides its score, the part of the
// distance its path has accumulated (docs/nw-dist.md, "forward form"):
//  - NDist: key = 2*score*4 + move code (UP 0 < LEFT 1 < DIAG 2), so the
//    smallest key is AmpliconNoise's move, ties included; plus the gap-run
//    distance counts (differences, columns) of the path and the kind of its
//    open gap run. The trailing gap run is dropped at (la, lb).
//  - SeqDist: the double score, the move, and the alignment length less the
//    free trailing moves.
// These are what the CPU engine and the CUDA kernels compute; tests hold
// them equal to the matrix-and-traceback references in nw_reference.hpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/nw/nw_metric.hpp"

namespace warpdp {

namespace nw_key {
inline constexpr int32_t up = 0, left = 1, diag = 2;
inline constexpr int32_t code_mask = 3;
// Packed NDist path counts: differences << 16 | columns.
inline constexpr int32_t one_run = 0x10001;
}  // namespace nw_key

// Scratch rows a worker reuses across pairs.
struct NwScratch {
    std::vector<int64_t> key;
    std::vector<uint32_t> num, den;
    std::vector<uint8_t> open;
    std::vector<double> f;
    std::vector<int32_t> aux;
    std::vector<uint8_t> move;
};

// Exact for every input (any length, literal '-' in reads). a, b: upper-case letters.
double ndist_forward(std::string_view a, std::string_view b, NwScratch& s);
double seqdist_forward(std::string_view a, std::string_view b, const SeqDistTable& t, NwScratch& s);

// The distance from NDist's packed counts at (la, lb) with the final move's
// code: the trailing gap run (if the path ends in one) is not counted.
inline double ndist_from_counts(int32_t counts, int32_t final_code, uint32_t la, uint32_t lb) {
    if (la == 0 || lb == 0) return 1.0;
    if (final_code != nw_key::diag) counts -= nw_key::one_run;
    const int32_t num = counts >> 16, den = counts & 0xffff;
    return den > 0 ? static_cast<double>(num) / static_cast<double>(den) : 1.0;
}

}  // namespace warpdp
