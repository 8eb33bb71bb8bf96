// Placeholder translation unit of the CUDA Viterbi-filter engine: until the
// kernel lands, a CUDA build answers like a CUDA-less one for this engine.
#include "core/device.hpp"
#include "core/errors.hpp"

namespace warpdp {

std::unique_ptr<VitEngine> make_vit_cuda_engine(const std::vector<int>&) {
    throw ResourceError("the CUDA Viterbi engine is not available in this build");
}

}  // namespace warpdp
