// The float DP matrix of the post-filter stages (docs/hmmer-filters.md §16):
// HMMER's striped layout kept as is, because Backward, decoding, null2, the
// optimal-accuracy fill and the stochastic traceback all read it by striped
// position and lane, and their float results depend on that order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/hmmer/fwd/fwd_profile.hpp"

namespace warpdp {

// Cell kinds of one striped position, in HMMER's order.
enum DomCell : int { kDomM = 0, kDomD, kDomI, kDomCells };
// Special states of a row, in HMMER's order; kDomXScale is the row's
// rescaling factor (1 where the row was not rescaled).
enum DomSpecial : int { kDomXE = 0, kDomXN, kDomXJ, kDomXB, kDomXC, kDomXScale, kDomSpecials };

// Rows 0..L. A full matrix keeps every row of cells; a parser matrix keeps
// one row of cells (row 0's storage, reused) but every row of specials.
class DomMatrix {
public:
    DomMatrix() = default;
    // Sizes the matrix for a profile of M nodes and a target of L residues,
    // every cell and special 0 (the scalar references rely on that).
    void resize(int M, uint64_t L, bool full);
    // As resize, but the cells keep whatever the storage held: for fills
    // that write every cell before they read it (docs/hmmer-filters.md
    // §16.2). Specials are 0. Storage only grows, so a workspace's matrices
    // stop allocating once they have seen their largest target.
    void reshape(int M, uint64_t L, bool full);

    int M() const noexcept { return M_; }
    int Q() const noexcept { return Q_; }
    uint64_t L() const noexcept { return L_; }
    bool full() const noexcept { return full_; }

    // The 4 lanes of cell s at striped position q of row i (row 0 for a parser).
    float* cell(uint64_t i, int q, DomCell s) noexcept {
        return &dp_[((row_index(i) * static_cast<size_t>(Q_) + static_cast<size_t>(q)) * kDomCells + static_cast<size_t>(s)) * kFwdLanes];
    }
    const float* cell(uint64_t i, int q, DomCell s) const noexcept {
        return &dp_[((row_index(i) * static_cast<size_t>(Q_) + static_cast<size_t>(q)) * kDomCells + static_cast<size_t>(s)) * kFwdLanes];
    }
    // Row i's cells (row 0's for a parser): cell s of position q at
    // [(q * kDomCells + s) * kFwdLanes], rows row_floats() apart.
    float* row(uint64_t i) noexcept { return dp_.data() + row_index(i) * row_floats(); }
    const float* row(uint64_t i) const noexcept { return dp_.data() + row_index(i) * row_floats(); }
    size_t row_floats() const noexcept { return static_cast<size_t>(Q_) * kDomCells * kFwdLanes; }
    float& x(uint64_t i, DomSpecial s) noexcept { return xmx_[i * kDomSpecials + static_cast<size_t>(s)]; }
    float x(uint64_t i, DomSpecial s) const noexcept { return xmx_[i * kDomSpecials + static_cast<size_t>(s)]; }
    // Every row's specials, special s of row i at [i * kDomSpecials + s].
    std::span<float> specials() noexcept { return {xmx_.data(), (static_cast<size_t>(L_) + 1) * kDomSpecials}; }
    std::span<const float> specials() const noexcept {
        return {xmx_.data(), (static_cast<size_t>(L_) + 1) * kDomSpecials};
    }

    // log of the product of the scale factors, in nats (HMMER's totscale).
    float totscale = 0.0f;
    // True when the scale factors are this matrix's own (Forward); a
    // Backward matrix uses the Forward matrix's factors.
    bool has_own_scales = true;

private:
    size_t row_index(uint64_t i) const noexcept { return full_ ? static_cast<size_t>(i) : 0; }
    int M_ = 0;
    int Q_ = 0;
    uint64_t L_ = 0;
    bool full_ = false;
    std::vector<float> dp_;
    std::vector<float> xmx_;
};

}  // namespace warpdp
