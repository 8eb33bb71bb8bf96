// Which rows of the strict lower triangle a gpu-nw-dist run computes. Row i
// holds the pairs (i, j), j < i, so row 0 holds none. Slices are contiguous
// row ranges; written in order they concatenate to the full output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpdp {

struct RowRange {
    uint64_t begin = 0, end = 0;  // [begin, end)
};

// "A:B" (0-based, half-open; A or B may be omitted: ":B", "A:", ":").
// Throws UsageError when malformed or outside [0, n].
RowRange parse_rows(const std::string& spec, uint64_t n);
// The syntax alone (B = UINT64_MAX when omitted), before the reads are counted.
RowRange parse_rows_syntax(const std::string& spec);

// "K/N", K in 1..N: the K-th of N contiguous row ranges of about equal cell
// count (sum over the range's pairs of la * lb). Throws UsageError.
RowRange parse_tile(const std::string& spec, const std::vector<uint32_t>& lengths);
RowRange tile_rows(uint64_t k, uint64_t tiles, const std::vector<uint32_t>& lengths);

// Pairs and cells of rows [r.begin, r.end).
uint64_t pairs_in(const RowRange& r);
uint64_t cells_in(const RowRange& r, const std::vector<uint32_t>& lengths);

}  // namespace warpdp
