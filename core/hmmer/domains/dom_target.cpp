#include "core/hmmer/domains/dom_target.hpp"

#include "core/hmmer/domains/dom_cpu.hpp"
#include "core/hmmer/domains/dom_fwdback.hpp"
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

DomKernels dom_reference_kernels() { return {dom_forward, dom_backward, dom_decoding, dom_optimal_accuracy}; }
DomKernels dom_vector_kernels() {
    return {dom_forward_cpu, dom_backward_cpu, dom_decoding_cpu, dom_optimal_accuracy_cpu};
}

}  // namespace warpdp
