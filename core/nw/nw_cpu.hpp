// The CPU engine of gpu-nw-dist (nw_cpu.cpp): pairs dealt out in groups of
// lanes that share read A, run by the lane kernels of one variant from the
// table below (core/base/simd_variants.hpp), and the engine's factories.
#pragma once

#include <memory>
#include <span>

#include "core/base/simd_variants.hpp"
#include "core/nw/nw_engine.hpp"
#include "core/nw/nw_lanes_kernels.hpp"

namespace warpdp {

// One entry of the table: the NDist kernel (16-bit lanes) and the SeqDist
// kernel (double lanes) of one instruction set.
struct NwCpuKernels {
    void (*ndist)(const nw_lanes::Group& g, nw_lanes::Scratch& s, double* out);
    void (*seqdist)(const nw_lanes::Group& g, const SeqDistTable& t, nw_lanes::Scratch& s, double* out);
};
using NwCpuVariant = SimdVariant<NwCpuKernels>;

// Best first: nw_lanes_avx2 (x86-64 only), nw_lanes_base.
std::span<const NwCpuVariant> nw_cpu_variants();

// The engine; threads = 0 counts as 1. It runs
// choose_variant<nw_cpu_variants>(), or `v` when given (tests, benchmarks;
// one this CPU lacks throws std::invalid_argument). Every variant and
// thread count gives the same doubles, bit for bit.
std::unique_ptr<NwEngine> make_nw_cpu_engine(unsigned threads);
std::unique_ptr<NwEngine> make_nw_cpu_engine(unsigned threads, const NwCpuVariant& v);

}  // namespace warpdp
