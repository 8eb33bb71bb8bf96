// The device facade of a CUDA build (kernels/common/gpus.hpp): which GPUs
// exist and whether this binary has CUDA engines. Enumeration never throws,
// because tools call it to decide whether to use a GPU at all.
#include <cuda_runtime.h>

#include "kernels/common/cuda_check.cuh"
#include "kernels/common/gpus.hpp"

namespace warpdp {

bool built_with_cuda() noexcept { return true; }

std::vector<GpuInfo> list_gpus() noexcept {
    std::vector<GpuInfo> gpus;
    try {
        int n = 0;
        if (cudaGetDeviceCount(&n) != cudaSuccess) {
            static_cast<void>(cudaGetLastError());  // clear the sticky "no device" state
            return {};
        }
        for (int i = 0; i < n; ++i) {
            cudaDeviceProp prop{};
            if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
            GpuInfo g;
            g.index = i;
            g.name = prop.name;
            g.memory_bytes = prop.totalGlobalMem;
            g.cc_major = prop.major;
            g.cc_minor = prop.minor;
            gpus.push_back(std::move(g));
        }
    } catch (...) {
        return {};
    }
    return gpus;
}

}  // namespace warpdp
