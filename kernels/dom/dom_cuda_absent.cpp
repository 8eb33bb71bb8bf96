// The post-filter engine factory of a build without CUDA: it refuses, so a
// caller falls back to the CPU forms.
#include "core/base/errors.hpp"
#include "kernels/dom/dom_cuda.hpp"

namespace warpdp {

std::unique_ptr<DomCudaEngine> make_dom_cuda_engine(int, uint64_t, DomCudaForm) {
    throw ResourceError("built without CUDA support");
}

}  // namespace warpdp
