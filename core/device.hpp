// The CUDA-free facade over GPUs: what core/ and tools/ may know about devices.
// Implemented in kernels/ (CUDA builds) or kernels/cuda_absent.cpp (no CUDA),
// where every engine factory throws ResourceError("built without CUDA support").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/fwd_engine.hpp"
#include "core/msv_engine.hpp"
#include "core/nw_engine.hpp"
#include "core/vit_engine.hpp"

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

// CUDA MSV engine over the given device indices (all of them used, targets
// split between them). Throws ResourceError when CUDA is unavailable.
std::unique_ptr<MsvEngine> make_msv_cuda_engine(const std::vector<int>& devices);

// CUDA Viterbi-filter engine over the given device indices. Throws
// ResourceError when CUDA is unavailable.
std::unique_ptr<VitEngine> make_vit_cuda_engine(const std::vector<int>& devices);

// CUDA Forward-filter engine over the given device indices (targets split
// between them). Throws ResourceError when CUDA is unavailable.
std::unique_ptr<FwdEngine> make_fwd_cuda_engine(const std::vector<int>& devices);

// CUDA engine of gpu-nw-dist (NDist/SeqDist distances) over the given device
// indices, pairs split between them. Throws ResourceError when CUDA is unavailable.
std::unique_ptr<NwEngine> make_nw_cuda_engine(const std::vector<int>& devices);

}  // namespace warpdp
