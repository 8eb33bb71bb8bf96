// The GPU enumeration of a build without CUDA: no GPUs. Each family's
// <family>_cuda_absent.cpp makes its engine factory refuse in such a build.
#include "kernels/common/gpus.hpp"

namespace warpdp {

bool built_with_cuda() noexcept { return false; }

std::vector<GpuInfo> list_gpus() noexcept { return {}; }

}  // namespace warpdp
