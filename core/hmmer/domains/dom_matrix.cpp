#include "core/hmmer/domains/dom_matrix.hpp"

#include <algorithm>

namespace warpdp {

namespace {

// Storage for at least n values: grown by half again at least (targets of
// slowly rising lengths would otherwise reallocate, and fault in fresh
// pages, at every one), never shrunk, old contents not kept.
void grow(std::vector<float>& v, size_t n) {
    if (v.size() >= n) return;
    const size_t want = std::max(n, v.size() + v.size() / 2);
    v.clear();
    v.resize(want);
}

}  // namespace

void DomMatrix::reshape(int M, uint64_t L, bool full) {
    M_ = M;
    Q_ = fwd_segments(M);
    L_ = L;
    full_ = full;
    const size_t rows = full ? static_cast<size_t>(L) + 1 : 1;
    grow(dp_, rows * row_floats());
    const size_t specials = (static_cast<size_t>(L) + 1) * kDomSpecials;
    grow(xmx_, specials);
    std::fill_n(xmx_.begin(), specials, 0.0f);
    totscale = 0.0f;
    has_own_scales = true;
}

void DomMatrix::resize(int M, uint64_t L, bool full) {
    reshape(M, L, full);
    const size_t rows = full ? static_cast<size_t>(L) + 1 : 1;
    std::fill_n(dp_.begin(), rows * row_floats(), 0.0f);
}

}  // namespace warpdp
