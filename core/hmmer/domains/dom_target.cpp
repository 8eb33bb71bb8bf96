#include "core/hmmer/domains/dom_target.hpp"

#include "core/hmmer/domains/dom_cpu.hpp"
#include "core/hmmer/domains/dom_fwdback.hpp"
#include "core/hmmer/domains/dom_null2.hpp"
#include "core/hmmer/domains/dom_optacc.hpp"

namespace warpdp {

const char* dom_outcome_error(DomOutcome o) noexcept {
    switch (o) {
        case DomOutcome::forward_range_error: return "its Forward score is NaN or under- or overflows";
        case DomOutcome::backward_range_error: return "its Backward score is NaN or under- or overflows";
        case DomOutcome::decoding_overflow: return "its domain decoding overflows";
        default: return "";
    }
}

namespace {

void null2_by_trace_reference(const FwdProfile& p, const Alphabet& abc, const DomTrace& tr, int zstart, int zend,
                              std::vector<float>& null2, std::vector<float>&) {
    null2 = dom_null2_by_trace(p, abc, tr, zstart, zend);
}

}  // namespace

DomKernels dom_reference_kernels() {
    return {dom_forward, dom_backward, dom_decoding, dom_optimal_accuracy, null2_by_trace_reference};
}
DomKernels dom_vector_kernels() {
    return {dom_forward_cpu, dom_backward_cpu, dom_decoding_cpu, dom_optimal_accuracy_cpu, dom_null2_by_trace_cpu};
}

}  // namespace warpdp
