// The CUDA MSV engine's own interface, beyond MsvEngine: chunk sizing for the
// tools and per-call statistics for the benchmark. No CUDA types, so host-only
// C++ (bench/, tools/) may include it; it exists only in CUDA builds
// (WARPDP_HAVE_CUDA is defined for targets linking warpdp_kernels).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/hmmer/msv/msv_engine.hpp"

namespace warpdp {

// CUDA MSV engine over the given device indices (all of them used, targets
// split between them). Throws ResourceError in a build
// without CUDA (msv_cuda_absent.cpp) or when CUDA is unavailable.
std::unique_ptr<MsvEngine> make_msv_cuda_engine(const std::vector<int>& devices);

// What the last score() call did, summed or maxed over devices.
struct MsvCudaStats {
    double kernel_ms = 0;        // max over devices of SSV + full-MSV kernel time (CUDA events)
    double ssv_ms = 0;           // max over devices of the SSV kernels alone
    uint64_t fallback_targets = 0;  // targets recomputed by the full-MSV kernel
    int group = 0;               // threads per target in the SSV kernel
    int stripe = 0;              // nodes per thread
    int tiles = 0;               // model tiles (passes over the targets)
    std::string variant;         // SSV kernel instance, e.g. "ssv_g32_s40"
};

class MsvCudaEngine : public MsvEngine {
public:
    virtual MsvCudaStats last_stats() const = 0;
    // Runs every later score() with the named SSV variant (one of
    // msv_cuda_variants()) instead of the dispatched one; "" restores dispatch.
    // Tests use it to check each variant by name.
    virtual void force_variant(const std::string& name) = 0;
};

// Device indices may repeat (each entry is its own slot with its own share of
// targets); tests use that to exercise the split on a single GPU.
std::unique_ptr<MsvCudaEngine> make_msv_cuda_engine_ex(const std::vector<int>& devices);

// Names of all SSV kernel variants ("ssv_g<group>_s<stripe>[_tiled]").
std::vector<std::string> msv_cuda_variants();

// Largest number of residues (with typical record lengths) that one chunk may
// hold on `device` given its free memory now; the tool sizes chunks with it.
size_t msv_cuda_max_chunk_residues(int device);

}  // namespace warpdp
