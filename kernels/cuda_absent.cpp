// The device facade of a build without CUDA: no GPUs, and every CUDA engine
// factory reports that this binary cannot run on a GPU.
#include "core/device.hpp"
#include "core/errors.hpp"

namespace warpdp {

bool built_with_cuda() noexcept { return false; }

std::vector<GpuInfo> list_gpus() noexcept { return {}; }

std::unique_ptr<MsvEngine> make_msv_cuda_engine(const std::vector<int>&) {
    throw ResourceError("built without CUDA support");
}

std::unique_ptr<VitEngine> make_vit_cuda_engine(const std::vector<int>&) {
    throw ResourceError("built without CUDA support");
}

std::unique_ptr<FwdEngine> make_fwd_cuda_engine(const std::vector<int>&) {
    throw ResourceError("built without CUDA support");
}

std::unique_ptr<NwEngine> make_nw_cuda_engine(const std::vector<int>&) {
    throw ResourceError("built without CUDA support");
}

}  // namespace warpdp
