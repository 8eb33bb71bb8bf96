// The boundary between the NW CPU engine (nw_cpu.cpp, whose variant table
// holds these entry points) and its lane kernels (nw_lanes_kernel_impl.hpp,
// built by nw_lanes_base.cpp and, on x86-64, nw_lanes_avx2.cpp): the group
// and scratch types and one pair of entry points per instruction set.
#pragma once

#include <cstdint>
#include <vector>

#include "core/base/aligned_alloc.hpp"
#include "core/nw/nw_forward.hpp"

// The kernels' vector helpers are always inlined, and no function passes a
// 32-byte vector by value between the baseline and AVX2 files, so GCC's
// note that such passing differs between the SSE2 and AVX2 ABIs is moot.
#if defined(__GNUC__)  // GCC and clang
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace warpdp::nw_lanes {

inline constexpr int kNdistLanes = 16;
inline constexpr int kSeqdistLanes = 4;  // one AVX2 register of doubles: wider vectors get scalarised

using I16 = int16_t __attribute__((vector_size(2 * kNdistLanes)));
using U8 = uint8_t __attribute__((vector_size(kNdistLanes)));
using F64 = double __attribute__((vector_size(8 * kSeqdistLanes)));
using I64 = int64_t __attribute__((vector_size(8 * kSeqdistLanes)));

// One group's B side, column-major: codes[(j - 1) * W + lane] for j = 1..max_lb.
struct Group {
    const uint8_t* a = nullptr;  // A's letter codes (metric-specific)
    uint32_t la = 0;
    uint32_t max_lb = 0;
    const uint8_t* b = nullptr;  // W * max_lb codes
    const uint32_t* lb = nullptr;  // W lengths
};

// (AlignedAlloc: the kernels' aligned loads need 32-byte alignment, which
// alignof(I16) gives in AVX2 code but not in the baseline code that allocates.)
struct Scratch {
    std::vector<I16, AlignedAlloc<I16>> lanes;
    std::vector<F64, AlignedAlloc<F64>> f;
    std::vector<I64, AlignedAlloc<I64>> len;
};

// NDist fast path, in 16-bit lanes: reads without a literal '-' and
// la + lb <= kNdistLaneMaxSum, where a gap column's kind is its move, keys
// (12 per gap, 4 bits of code room) stay below 32,768 and the counts fit.
inline constexpr uint32_t kNdistLaneMaxSum = 2730;

// Each fills out[0..W) for the group's W lanes (W = kNdistLanes or
// kSeqdistLanes); the _avx2 pair runs only where cpu_supports(CpuIsa::avx2).
void ndist_base(const Group& g, Scratch& s, double* out);
void seqdist_base(const Group& g, const SeqDistTable& t, Scratch& s, double* out);
void ndist_avx2(const Group& g, Scratch& s, double* out);
void seqdist_avx2(const Group& g, const SeqDistTable& t, Scratch& s, double* out);

}  // namespace warpdp::nw_lanes
