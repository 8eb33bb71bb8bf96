// The compact traces of the CUDA optimal-accuracy engine turned into
// DomTraces (docs/hmmer-filters.md §16.9): the steps come in the order
// dom_oa_trace appends them, so replaying its appends with the residue index
// it would hold at each one, then reversing, gives its trace.
#include "core/base/errors.hpp"
#include "kernels/dom/dom_optacc_cuda.hpp"

namespace warpdp {

std::string dom_oa_trace_error_text(uint8_t code) {
    switch (code) {
    case kOaBadM: return "M state outside the matrix";
    case kOaBadD: return "D state with no node before it";
    case kOaBadI: return "I state outside the matrix";
    case kOaBadC: return "C state reached row 0";
    case kOaBadJ: return "J state reached row 0";
    case kOaBadE: return "E state's best cell lies beyond the model";
    case kOaBogus: return "bogus state";
    default: return "unknown error " + std::to_string(code);
    }
}

void dom_oa_unpack_trace(const DomOaResults& r, size_t e, int M, uint64_t L, DomTrace& tr, int64_t i_offset) {
    if (r.trace_error[e] != kOaOk)
        throw InternalError("optimal-accuracy traceback: " + dom_oa_trace_error_text(r.trace_error[e]));
    tr.clear();
    const uint64_t first = r.step_off[e], last = r.step_off[e + 1];
    // Each step's residue: M and I leave row i for i - 1 as the traceback
    // moves on from them, a repeated N, C or J after it records i.
    auto i = static_cast<int64_t>(L);
    DomState prev = kStBogus;
    for (uint64_t z = first; z < last; ++z) {
        const auto st = static_cast<DomState>(r.steps[z] & 0xFu);
        const auto k = static_cast<int>(r.steps[z] >> 4);
        if (prev == kStM || prev == kStI) --i;
        dom_trace_append(tr, st, k, i, r.step_pp[z]);
        if ((st == kStN || st == kStJ || st == kStC) && st == prev) --i;
        prev = st;
    }
    dom_trace_reverse(tr);
    tr.M = M;
    tr.L = static_cast<int64_t>(L);
    if (i_offset != 0)
        for (auto& s : tr.steps)
            if (s.i > 0) s.i += i_offset;
}

}  // namespace warpdp
