#include "core/hmmer/domains/dom_matrix.hpp"

namespace warpdp {

void DomMatrix::resize(int M, uint64_t L, bool full) {
    M_ = M;
    Q_ = fwd_segments(M);
    L_ = L;
    full_ = full;
    const size_t rows = full ? static_cast<size_t>(L) + 1 : 1;
    dp_.assign(rows * static_cast<size_t>(Q_) * kDomCells * kFwdLanes, 0.0f);
    xmx_.assign((static_cast<size_t>(L) + 1) * kDomSpecials, 0.0f);
    totscale = 0.0f;
    has_own_scales = true;
}

}  // namespace warpdp
