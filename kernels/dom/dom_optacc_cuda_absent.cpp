// The optimal-accuracy engine of a build without CUDA: the factory refuses,
// and so do the result readers, since no results can exist.
#include "core/base/errors.hpp"
#include "kernels/dom/dom_optacc_cuda.hpp"

namespace warpdp {

std::unique_ptr<DomOaEngine> make_dom_oa_cuda_engine(int, uint64_t) { throw ResourceError("built without CUDA support"); }

std::unique_ptr<DomOaEngine> make_dom_oa_cuda_engine_ex(int, const DomOaTestHooks&) {
    throw ResourceError("built without CUDA support");
}

std::string dom_oa_trace_error_text(uint8_t) { throw ResourceError("built without CUDA support"); }

void dom_oa_unpack_trace(const DomOaResults&, size_t, int, uint64_t, DomTrace&, int64_t) {
    throw ResourceError("built without CUDA support");
}

}  // namespace warpdp
