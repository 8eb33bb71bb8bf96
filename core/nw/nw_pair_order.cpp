// The order in which pairs go to an engine (row by row, the columns by read
// length) and each pair's place in row-major output order.
#include "core/nw/nw_pair_order.hpp"

#include <algorithm>
#include <numeric>

namespace warpdp {

NwPairOrder::NwPairOrder(const std::vector<uint32_t>& lengths) : by_length_(lengths.size()) {
    std::iota(by_length_.begin(), by_length_.end(), 0u);
    std::stable_sort(by_length_.begin(), by_length_.end(),
                     [&](uint32_t x, uint32_t y) { return lengths[x] < lengths[y]; });
}

void NwPairOrder::pairs(const RowRange& r, std::vector<NwPair>& out, std::vector<uint64_t>& position) const {
    out.clear();
    position.clear();
    uint64_t row_start = 0;  // row-major index of (i, 0) relative to (r.begin, 0)
    for (uint64_t i = r.begin; i < r.end; ++i) {
        for (uint32_t j : by_length_)
            if (j < i) {
                out.push_back({static_cast<uint32_t>(i), j});
                position.push_back(row_start + j);
            }
        row_start += i;
    }
}

}  // namespace warpdp
