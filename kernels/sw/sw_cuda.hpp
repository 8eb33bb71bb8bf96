// The CUDA gpu-sw engine's interface (docs/sw.md §6): the factory every
// build has, and, in CUDA builds only (WARPDP_HAVE_CUDA is defined for
// targets linking warpdp_kernels there), forcing a kernel configuration by
// name so that the tests check each against the reference. No CUDA types,
// so host-only C++ (bench/, tests/, tools/) may include it; in a build
// without CUDA, sw_cuda_absent.cpp's factory refuses.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/sw/sw_engine.hpp"

namespace warpdp {

// CUDA engine of gpu-sw over the given device indices: load() makes the
// chunk resident on every listed GPU (split between them), score() runs the
// query on all of them and returns the exact scores of core/sw/sw_engine.hpp
// (targets whose 16-bit lanes saturated recomputed in 32 bits). Throws
// ResourceError in a build without CUDA or when CUDA is unavailable.
std::unique_ptr<SwEngine> make_sw_cuda_engine(const std::vector<int>& devices);

class SwCudaEngine : public SwEngine {
public:
    // Runs every target of later score() calls with the named kernel
    // configuration (one of sw_cuda_variants()) instead of the choice by
    // length; "" restores the default. A name not in the list throws
    // UsageError.
    virtual void force_variant(const std::string& name) = 0;
};

// CUDA builds only: the engine with its extra interface, and the names of
// all kernel configurations.
std::unique_ptr<SwCudaEngine> make_sw_cuda_engine_ex(const std::vector<int>& devices);
std::vector<std::string> sw_cuda_variants();
// The query rows one pass of the named configuration covers (0: no such name).
uint32_t sw_cuda_variant_rows(const std::string& name);

}  // namespace warpdp
