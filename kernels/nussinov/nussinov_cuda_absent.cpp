// The gpu-nussinov engine factory of a build without CUDA: it refuses, so
// that --device cuda fails cleanly (exit 3) and --device auto picks the CPU.
#include "core/base/errors.hpp"
#include "kernels/nussinov/nussinov_cuda.hpp"

namespace warpdp {

std::unique_ptr<NussinovEngine> make_nussinov_cuda_engine(const std::vector<int>&) {
    throw ResourceError("built without CUDA support");
}

uint32_t nussinov_cuda_shared_batch_max_length(int, int) { return 0; }
std::vector<uint32_t> nussinov_cuda_batch_class_limits(int, int) { return {}; }

}  // namespace warpdp
