#include "core/hmmer/domains/dom_specials.hpp"

namespace warpdp {

DomSpecialOdds dom_special_odds(uint64_t L, bool multihit) {
    const float nj = multihit ? 1.0f : 0.0f;
    const float move = (2.0f + nj) / (static_cast<float>(L) + 2.0f + nj);
    const float loop = 1.0f - move;
    DomSpecialOdds o;
    o.n_loop = o.c_loop = o.j_loop = loop;
    o.n_move = o.c_move = o.j_move = move;
    o.e_loop = multihit ? 0.5f : 0.0f;
    o.e_move = multihit ? 0.5f : 1.0f;
    return o;
}

}  // namespace warpdp
