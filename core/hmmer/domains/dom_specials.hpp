// Special-state odds of HMMER's optimized profile for one configuration
// (docs/hmmer-filters.md §16.1): the post-filter stages switch the profile
// between multihit (whole target, multi-domain regions) and unihit (each
// envelope) while keeping the whole target's length model.
#pragma once

#include <cstdint>

namespace warpdp {

struct DomSpecialOdds {
    float n_loop = 0, n_move = 0;
    float e_loop = 0, e_move = 0;
    float c_loop = 0, c_move = 0;
    float j_loop = 0, j_move = 0;
};

// Length model for a target of L residues: move = (2 + nj) / (L + 2 + nj)
// in float, nj = 1 multihit, 0 unihit; E odds 1/2, 1/2 multihit, 0, 1 unihit.
DomSpecialOdds dom_special_odds(uint64_t L, bool multihit);

}  // namespace warpdp
