// The CUDA gpu-nussinov engine's own interface, beyond NussinovEngine:
// per-call statistics for the benchmark, forcing a kernel instance by name
// (tests check each against the reference), and the longest sequence a card
// can fold. No CUDA types, so host-only C++ (bench/, tests/, tools/) may
// include it; make_nussinov_cuda_engine exists in every build (it throws
// ResourceError without CUDA, nussinov_cuda_absent.cpp), the rest only in
// CUDA builds (WARPDP_HAVE_CUDA is defined for targets linking warpdp_kernels).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/nussinov/nussinov_engine.hpp"

namespace warpdp {

// CUDA engine of gpu-nussinov over the given device indices: short sequences
// are split between the devices, each long one folds on one device. Throws
// ResourceError in a build without CUDA or when CUDA is unavailable.
std::unique_ptr<NussinovEngine> make_nussinov_cuda_engine(const std::vector<int>& devices);

// What the last fold() call did, maxed or summed over devices.
struct NussinovCudaStats {
    double kernel_ms = 0;          // max over devices of the summed kernel time (CUDA events)
    double device_ms = 0;          // max over devices of the wall time of its share (uploads, kernels, copies back)
    double traceback_ms = 0;       // the tiled shape's traceback kernels, within kernel_ms (summed over devices)
    uint64_t cells = 0;            // sum of n (n + 1) / 2 over the sequences folded on GPUs
    uint64_t steps = 0;            // sum over those of sum_{i<j} (j - i) = (n^3 - n) / 6: the (i, j, k) work
    uint64_t batch_sequences = 0;  // sequences folded by the batch kernels
    uint64_t long_sequences = 0;   // sequences folded by the tiled wavefront
    uint64_t host_sequences = 0;   // lengths 0 and 1, answered without a GPU
    uint64_t launches = 0;         // kernel launches, all devices
    std::string variant;           // kernel instances used, '+'-joined in table order, e.g. "batch16_smem+long16"
};

class NussinovCudaEngine : public NussinovEngine {
public:
    virtual NussinovCudaStats last_stats() const = 0;
    // Runs every sequence of later fold() calls with the named kernel instance
    // (one of nussinov_cuda_variants()) instead of the choice by length and
    // score range; "" restores the default. A sequence the instance cannot
    // take (16-bit cells too narrow for its largest possible score, a table
    // too large for shared memory) makes fold() throw UsageError.
    virtual void force_variant(const std::string& name) = 0;
    // The longest sequence the default choice gives the batch shape, within
    // what shared memory holds; 0, the default, is that limit
    // (docs/nussinov.md §10.2). For the benchmark's crossover measurements.
    virtual void set_batch_max_length(uint32_t n) = 0;
};

// Device indices may repeat (each entry is its own slot with its own share);
// tests use that to exercise the split on a single GPU.
std::unique_ptr<NussinovCudaEngine> make_nussinov_cuda_engine_ex(const std::vector<int>& devices);

// Names of all kernel instances: "batch8_smem", "batch16_smem", "batch32_smem", "long16",
// "long32" (the tiles).
std::vector<std::string> nussinov_cuda_variants();

// The longest sequence the tiled wavefront can fold on `device` with the
// memory free there now, when no pair weighs more than max_weight (which
// decides between 16- and 32-bit cells). Throws ResourceError without CUDA.
uint64_t nussinov_cuda_max_length(int device, int max_weight = 1);

// The longest sequence the batch kernels fold with their tables in shared
// memory on `device`; the tiled kernels fold longer ones. 0 in a build
// without CUDA.
uint32_t nussinov_cuda_shared_batch_max_length(int device, int max_weight = 1);

// Where the batch shape's launch changes on `device`: the longest length of
// each count of blocks a multiprocessor holds (docs/nussinov.md §10.2),
// longest first; the first is nussinov_cuda_shared_batch_max_length. Empty in
// a build without CUDA.
std::vector<uint32_t> nussinov_cuda_batch_class_limits(int device, int max_weight = 1);

}  // namespace warpdp
