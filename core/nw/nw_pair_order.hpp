// The order in which gpu-nw-dist hands pairs to an engine: row by row, and
// within a row the columns j < i by increasing read length (ties by index),
// so consecutive pairs share A and have B reads of similar length, which is
// what the engines' lane groups and warps want. `position` maps each pair
// back to its place in row-major output order.
#pragma once

#include <cstdint>
#include <vector>

#include "core/nw/nw_engine.hpp"
#include "core/nw/nw_rows.hpp"

namespace warpdp {

class NwPairOrder {
public:
    explicit NwPairOrder(const std::vector<uint32_t>& lengths);
    // Pairs of rows [r.begin, r.end), and for each its row-major index
    // relative to the first pair of row r.begin.
    void pairs(const RowRange& r, std::vector<NwPair>& out, std::vector<uint64_t>& position) const;

private:
    std::vector<uint32_t> by_length_;  // read indices sorted by (length, index)
};

}  // namespace warpdp
