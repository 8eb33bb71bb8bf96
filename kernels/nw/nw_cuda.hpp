// The CUDA gpu-nw-dist engine's own interface, beyond NwEngine: per-call
// statistics for the benchmark, forcing a kernel instance by name and
// bounding the pairs of one launch (tests force chunking with it). No CUDA
// types, so host-only C++ (bench/, tests/) may include it; it exists only in
// CUDA builds (WARPDP_HAVE_CUDA is defined for targets linking warpdp_kernels).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/nw/nw_engine.hpp"

namespace warpdp {

// CUDA engine of gpu-nw-dist (NDist/SeqDist distances) over the given device
// indices, pairs split between them. Throws ResourceError in a build
// without CUDA (nw_cuda_absent.cpp) or when CUDA is unavailable.
std::unique_ptr<NwEngine> make_nw_cuda_engine(const std::vector<int>& devices);

// What the last compute() call did, maxed or summed over devices.
struct NwCudaStats {
    double kernel_ms = 0;      // max over devices of the summed kernel time (CUDA events)
    double device_ms = 0;      // max over devices of the wall time of its share (uploads, kernels, downloads)
    uint64_t gpu_pairs = 0;    // pairs computed on GPUs
    uint64_t gpu_cells = 0;    // sum of la * lb over those pairs
    uint64_t host_pairs = 0;   // pairs the host computed (empty reads, NDist la + lb > 5000)
    uint64_t launches = 0;     // kernel launches, all devices
    std::string variant;       // kernel instance, e.g. "ndist_tb_r32"
};

class NwCudaEngine : public NwEngine {
public:
    virtual NwCudaStats last_stats() const = 0;
    // Runs every later compute() with the named kernel instance (one of
    // nw_cuda_variants() for the loaded metric) instead of the default; ""
    // restores the default. Tests check each by name.
    virtual void force_variant(const std::string& name) = 0;
    // At most this many pairs per kernel launch (0: the default bound). Fewer
    // are launched when device memory is short.
    virtual void set_launch_pairs(size_t n) = 0;
};

// Device indices may repeat (each entry is its own slot with its own share of
// pairs); tests use that to exercise the split on a single GPU.
std::unique_ptr<NwCudaEngine> make_nw_cuda_engine_ex(const std::vector<int>& devices);

// Names of all kernel instances ("ndist_tb_r<rows>", "seqdist_r<rows>").
std::vector<std::string> nw_cuda_variants();

}  // namespace warpdp
