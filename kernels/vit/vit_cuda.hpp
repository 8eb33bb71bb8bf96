// The CUDA Viterbi-filter engine's own interface, beyond VitEngine: per-call
// statistics for the benchmark. No CUDA types, so host-only C++ (bench/,
// tests/) may include it; it exists only in CUDA builds (WARPDP_HAVE_CUDA is
// defined for targets linking warpdp_kernels).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/hmmer/vit/vit_engine.hpp"

namespace warpdp {

// CUDA Viterbi-filter engine over the given device indices. Throws ResourceError in a build
// without CUDA (vit_cuda_absent.cpp) or when CUDA is unavailable.
std::unique_ptr<VitEngine> make_vit_cuda_engine(const std::vector<int>& devices);

// What the last score() call did, maxed or summed over devices.
struct VitCudaStats {
    double kernel_ms = 0;      // max over devices of the kernel time (CUDA events)
    uint64_t targets = 0;      // targets scored
    uint64_t residues = 0;     // residues of those targets
    int group = 0;             // lanes per target
    int stripe = 0;            // nodes per lane
    std::string variant;       // int32 kernel instance, e.g. "vit_g8_s12" ("" when it scored nothing)
    int tiles = 0;             // its model tiles of group * stripe nodes
    std::string variant16;     // packed 16-bit instance, e.g. "vit16_g4_s12" ("" when it scored nothing)
    int tiles16 = 0;           // its model tiles of 2 * group * stripe nodes
    uint64_t targets16 = 0;    // targets the 16-bit kernel scored (core/hmmer/vit/vit_word16 decides)
    uint64_t residues16 = 0;
};

class VitCudaEngine : public VitEngine {
public:
    virtual VitCudaStats last_stats() const = 0;
    // Runs every later score() with the named kernel instance (one of
    // vit_cuda_variants(); tiled when the model is wider than it) instead of
    // the dispatched one; "" restores dispatch. An int32 instance ("vit_...")
    // then scores every target; a 16-bit one ("vit16_...") the targets safe for
    // it, the others going to the dispatched int32 instance. Tests check each by name.
    virtual void force_variant(const std::string& name) = 0;
};

// Device indices may repeat (each entry is its own slot with its own share of
// targets); tests use that to exercise the split on a single GPU.
std::unique_ptr<VitCudaEngine> make_vit_cuda_engine_ex(const std::vector<int>& devices);

// Names of all kernel instances ("vit_g<group>_s<stripe>", "vit16_g<group>_s<pairs>").
std::vector<std::string> vit_cuda_variants();

}  // namespace warpdp
