// The gpu-sw engine factory of a build without CUDA: it refuses, so that
// --device cuda fails cleanly (exit 3) and --device auto picks the CPU.
#include "core/base/errors.hpp"
#include "kernels/sw/sw_cuda.hpp"

namespace warpdp {

std::unique_ptr<SwEngine> make_sw_cuda_engine(const std::vector<int>&) {
    throw ResourceError("built without CUDA support");
}

}  // namespace warpdp
