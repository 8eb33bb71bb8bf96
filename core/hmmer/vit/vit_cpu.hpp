// The optimized CPU Viterbi filter: striped int16 (Farrar) kernels, one per
// instruction set (SSE2: 8 lanes, AVX2: 16 lanes) in a table of variants
// (core/base/simd_variants.hpp), a scorer object that owns the striped
// profile and the row scratch so tests and benchmarks can force each variant
// by name, and the engine's factories. Results equal vit_reference() bit for
// bit (tests/core/hmmer/vit/test_vit_cpu.cpp).
#pragma once

#include <cstdint>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/base/aligned_alloc.hpp"
#include "core/base/simd_variants.hpp"
#include "core/hmmer/vit/vit_engine.hpp"
#include "core/hmmer/vit/vit_profile.hpp"

namespace warpdp {

using VitWords = std::vector<int16_t, AlignedAlloc<int16_t>>;

// One entry of the table: the lane count its striped profile is built for
// and its kernel (vit_striped_kernels.hpp).
struct VitCpuKernels {
    int lanes;
    uint32_t (*score)(const int16_t* trans, const int16_t* emit, int Q, int16_t* rows, const uint8_t* dsq,
                      uint64_t L, int ncj);
};
using VitCpuVariant = SimdVariant<VitCpuKernels>;

// Best first: vit_striped_avx2_i16, vit_striped_sse2_i16. Empty off x86-64,
// where the engine's factories throw std::runtime_error.
std::span<const VitCpuVariant> vit_cpu_variants();

// The word profile rearranged for one variant's lane count: node k sits in
// vector q = (k-1) % Q, lane z = (k-1) / Q; nodes past M are padding whose
// scores are all -32768, so they can never reach a real node or xE.
struct VitStripedProfile {
    int M = 0, Q = 0, W = 0, Kp = 0;
    VitWords trans;  // [q][VitTrans slot][lane]
    VitWords emit;   // [code][q][lane]
};
VitStripedProfile build_vit_striped(const VitWordProfile& p, int lanes);

// One variant bound to one model; reuses its row scratch across targets.
// Not thread-safe: one scorer per thread.
class VitCpuScorer {
public:
    // Throws std::invalid_argument if this CPU lacks v's instruction set.
    VitCpuScorer(const VitCpuVariant& v, const VitWordProfile& p);
    // Raw result as vit_reference(): xC + 32768, kVitOverflow or kVitNoPath.
    uint32_t score(std::span<const uint8_t> dsq);

private:
    VitCpuVariant variant_;
    VitStripedProfile sp_;
    VitWords rows_;
};

// The threaded engine; threads = 0 means all cores. It runs
// choose_variant<vit_cpu_variants>(), or `v` when given (tests, benchmarks;
// one this CPU lacks throws std::invalid_argument). Results do not depend
// on the thread count.
std::unique_ptr<VitEngine> make_vit_cpu_engine(unsigned threads);
std::unique_ptr<VitEngine> make_vit_cpu_engine(unsigned threads, const VitCpuVariant& v);

}  // namespace warpdp
