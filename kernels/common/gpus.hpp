// Which GPUs this binary can use: the part of the CUDA-free facade that is
// not tied to an algorithm. Implemented by gpus_cuda.cu in a CUDA build and by
// gpus_absent.cpp in a build without CUDA (no GPUs). Each family declares its
// own engine factory beside its engine (kernels/<family>/<family>_cuda.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpdp {

struct GpuInfo {
    int index = 0;
    std::string name;
    uint64_t memory_bytes = 0;
    int cc_major = 0;
    int cc_minor = 0;
};

// True when this binary contains CUDA engines.
bool built_with_cuda() noexcept;
// Visible GPUs; empty without CUDA, without a driver or without a GPU. Never throws.
std::vector<GpuInfo> list_gpus() noexcept;

}  // namespace warpdp
