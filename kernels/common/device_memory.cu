// The one place the CUDA engines ask a device for its free memory
// (kernels/common/device_memory.hpp).
#include <cuda_runtime.h>

#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_memory.hpp"

namespace warpdp::cuda {

DeviceMemory device_memory() {
    size_t free_bytes = 0, total_bytes = 0;
    WARPDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    return DeviceMemory{free_bytes, total_bytes};
}

}  // namespace warpdp::cuda
