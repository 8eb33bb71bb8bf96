// The VIT engine factory of a build without CUDA: it refuses, so that
// --device cuda fails cleanly (exit 3) and --device auto picks the CPU.
#include "core/base/errors.hpp"
#include "kernels/vit/vit_cuda.hpp"

namespace warpdp {

std::unique_ptr<VitEngine> make_vit_cuda_engine(const std::vector<int>&) {
    throw ResourceError("built without CUDA support");
}

}  // namespace warpdp
