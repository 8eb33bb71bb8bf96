// Posterior decoding (HMMER 3.3.2 impl_sse p7_Decoding and
// p7_DomainDecoding, docs/hmmer-filters.md §16.2), scalar references in
// HMMER's float order.
#pragma once

#include <span>
#include <vector>

#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_specials.hpp"

namespace warpdp {

// HMMER's eslERANGE of the decodings: the product of scale-factor ratios
// became infinite, which only a Backward with its own scale factors can
// cause. hmmsearch then drops the envelope (p7_Decoding) or the target's
// domain definition fails (p7_DomainDecoding).
enum class DomDecodeStatus { ok, overflow };

// Posterior probability of each M and I cell and of the N, J, C states
// emitting each residue, from full Forward and Backward matrices filled with
// the same `odds`. D cells, E and B are 0. `pp` may be `bck` itself (HMMER
// decodes in place); otherwise it is resized here. Its scale column is left
// as it was.
DomDecodeStatus dom_decoding(const DomSpecialOdds& odds, const DomMatrix& fwd, const DomMatrix& bck, DomMatrix& pp);

// Per residue i = 0..L (index 0 holds 0): mocc, the probability that the
// core model emits i; btot and etot, the expected numbers of domain starts
// (B) and ends (E) at or before i. From the specials of Forward and
// Backward matrices of either kind (parsers suffice).
struct DomOccupancy {
    std::vector<float> mocc, btot, etot;
};
DomDecodeStatus dom_domain_decoding(const DomSpecialOdds& odds, const DomMatrix& fwd, const DomMatrix& bck,
                                    DomOccupancy& out);

// The same from the specials alone (DomMatrix::specials() and the
// matrix's has_own_scales), as batched parsers hand them over.
struct DomSpecialRows {
    std::span<const float> x;  // rows 0..L
    bool own_scales = true;
    float operator()(uint64_t i, DomSpecial s) const noexcept { return x[i * kDomSpecials + static_cast<size_t>(s)]; }
};
DomDecodeStatus dom_domain_decoding(const DomSpecialOdds& odds, DomSpecialRows fwd, DomSpecialRows bck,
                                    DomOccupancy& out);

}  // namespace warpdp
