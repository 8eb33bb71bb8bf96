// The alignment display of one domain (HMMER 3.3.2's p7_alidisplay_Create,
// docs/hmmer-filters.md §16.5): the model, match and target lines and their
// annotation, built from an optimal-accuracy trace.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/hmmer/domains/dom_hit.hpp"
#include "core/hmmer/domains/dom_trace.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"
#include "core/hmmer/hmm.hpp"

namespace warpdp {

// The target as the display names it; dsq holds its residue codes, residue
// i (1-based, as in traces) at dsq[i - 1].
struct DomAliTarget {
    std::string_view name, acc, desc;
    std::span<const uint8_t> dsq;
};

// The display of domain `which` (0-based) of `tr`: from its first to its
// last M state. `fp` is the model's Forward odds profile, whose match odds
// decide the '+' of the match line. The model needs a consensus line (what
// hmmsearch needs to search at all); throws InternalError when it has none
// or when the domain has no M state.
DomAliDisplay dom_alidisplay(const DomTrace& tr, int which, const Hmm& hmm, const FwdProfile& fp,
                             const DomAliTarget& target);

// The posterior-probability character: '0'..'9' for p rounded to tenths
// (in double, from p + 0.05, truncated), '*' from 0.95 on.
char dom_pp_char(float p);

}  // namespace warpdp
