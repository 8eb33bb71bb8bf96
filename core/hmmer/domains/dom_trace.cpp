// Building and indexing state paths as HMMER's P7_TRACE does
// (docs/hmmer-filters.md §16.3).
#include "core/hmmer/domains/dom_trace.hpp"

#include <algorithm>

#include "core/base/errors.hpp"

namespace warpdp {

void dom_trace_append(DomTrace& tr, DomState st, int k, int64_t i, float pp) {
    DomTraceStep s;
    s.st = st;
    switch (st) {
    case kStN:
    case kStC:
    case kStJ:
        // emit-on-transition: the first state of a run emits nothing
        if (!tr.steps.empty() && tr.steps.back().st == st) {
            s.i = i;
            s.pp = pp;
        }
        break;
    case kStX:
    case kStS:
    case kStB:
    case kStE:
    case kStT:
        break;
    case kStD:
        s.k = k;
        break;
    case kStM:
    case kStI:
        s.k = k;
        s.i = i;
        s.pp = pp;
        break;
    default:
        throw InternalError("dom_trace_append: no such state");
    }
    tr.steps.push_back(s);
}

void dom_trace_reverse(DomTrace& tr) {
    auto& v = tr.steps;
    for (size_t z = 0; z + 1 < v.size(); ++z) {
        const DomState st = v[z].st;
        if ((st == kStN || st == kStC || st == kStJ) && v[z + 1].st == st && v[z].i == 0 && v[z + 1].i > 0) {
            v[z].i = v[z + 1].i;
            v[z].pp = v[z + 1].pp;
            v[z + 1].i = 0;
            v[z + 1].pp = 0.0f;
        }
    }
    std::reverse(v.begin(), v.end());
    tr.domains.clear();
}

void dom_trace_index(DomTrace& tr) {
    tr.domains.clear();
    DomTraceDomain cur;
    for (size_t z = 0; z < tr.steps.size(); ++z) {
        const DomTraceStep& s = tr.steps[z];
        switch (s.st) {
        case kStB:
            cur = DomTraceDomain{};
            cur.tfrom = static_cast<int>(z);
            break;
        case kStM:
            if (cur.sqfrom == 0) cur.sqfrom = s.i;
            if (cur.hmmfrom == 0) cur.hmmfrom = s.k;
            cur.sqto = s.i;
            cur.hmmto = s.k;
            break;
        case kStE:
            cur.tto = static_cast<int>(z);
            tr.domains.push_back(cur);
            break;
        default:
            break;
        }
    }
}

}  // namespace warpdp
