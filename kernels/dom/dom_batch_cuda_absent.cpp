// A build without CUDA: no GPU batch kernels.
#include "core/base/errors.hpp"
#include "kernels/dom/dom_batch_cuda.hpp"

namespace warpdp {

std::unique_ptr<DomBatchKernels> make_dom_cuda_batch_kernels(int, double) {
    throw ResourceError("this gpu-hmmsearch was built without CUDA");
}

}  // namespace warpdp
