#include "core/hmmer/domains/dom_matrix.hpp"

#include <algorithm>

namespace warpdp {

void DomMatrix::reshape(int M, uint64_t L, bool full) {
    M_ = M;
    Q_ = fwd_segments(M);
    L_ = L;
    full_ = full;
    const size_t rows = full ? static_cast<size_t>(L) + 1 : 1;
    const size_t cells = rows * row_floats();
    if (dp_.size() < cells) {
        dp_.clear();  // nothing to keep: no copy of the old cells
        dp_.resize(cells);
    }
    xmx_.assign((static_cast<size_t>(L) + 1) * kDomSpecials, 0.0f);
    totscale = 0.0f;
    has_own_scales = true;
}

void DomMatrix::resize(int M, uint64_t L, bool full) {
    reshape(M, L, full);
    const size_t rows = full ? static_cast<size_t>(L) + 1 : 1;
    std::fill_n(dp_.begin(), rows * row_floats(), 0.0f);
}

}  // namespace warpdp
