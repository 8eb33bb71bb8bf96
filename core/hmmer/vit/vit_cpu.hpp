// The optimized CPU Viterbi filter: striped int16 (Farrar) kernels, one per
// instruction set (SSE2: 8 lanes, AVX2: 16 lanes), chosen at run time, and a
// scorer object that owns the striped profile and the row scratch so tests
// and benchmarks can force each variant by name. Results equal
// vit_reference() bit for bit (tests/core/hmmer/vit/test_vit_cpu.cpp).
#pragma once

#include <cstdint>
#include <cstddef>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "core/hmmer/vit/vit_engine.hpp"
#include "core/hmmer/vit/vit_profile.hpp"

namespace warpdp {

enum class VitCpuVariant { sse2, avx2 };

// 64-byte aligned storage: a 32-byte AVX2 load from malloc's 16-byte
// alignment would straddle a cache line every other time.
template <class T>
struct VitAlignedAlloc {
    using value_type = T;
    VitAlignedAlloc() = default;
    template <class U>
    VitAlignedAlloc(const VitAlignedAlloc<U>&) noexcept {}
    T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(64))); }
    void deallocate(T* p, size_t) noexcept { ::operator delete(p, std::align_val_t(64)); }
    template <class U>
    bool operator==(const VitAlignedAlloc<U>&) const noexcept { return true; }
};
using VitWords = std::vector<int16_t, VitAlignedAlloc<int16_t>>;

const char* vit_cpu_variant_name(VitCpuVariant v);
// False when this CPU lacks the instruction set (or the build is not x86-64).
bool vit_cpu_variant_available(VitCpuVariant v);
// AVX2 when available, else SSE2.
VitCpuVariant vit_cpu_best_variant();
// Every variant this CPU can run, for tests and benchmarks.
std::vector<VitCpuVariant> vit_cpu_available_variants();

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
    VitCpuScorer(VitCpuVariant v, const VitWordProfile& p);
    // Raw result as vit_reference(): xC + 32768, kVitOverflow or kVitNoPath.
    uint32_t score(std::span<const uint8_t> dsq);

private:
    VitCpuVariant variant_;
    VitStripedProfile sp_;
    VitWords rows_;
};

// The threaded engine with a forced variant (make_vit_cpu_engine picks the best).
// threads = 0 means all cores. Results do not depend on the thread count.
std::unique_ptr<VitEngine> make_vit_cpu_engine_variant(unsigned threads, VitCpuVariant v);

}  // namespace warpdp
