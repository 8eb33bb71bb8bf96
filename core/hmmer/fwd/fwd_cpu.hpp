// The optimized CPU Forward filter (fwd_cpu.cpp): HMMER's own striped layout
// of four float lanes, threads over targets.
//
// It has no table of SIMD variants (core/base/simd_variants.hpp), because
// the lane count is part of the result: HMMER sums each row's four lanes
// in one order, and a wider vector would add in another and round
// differently. So there is one kernel, written with GCC vector types for
// the build's baseline (SSE on x86-64).
#pragma once

#include <memory>

#include "core/hmmer/fwd/fwd_engine.hpp"

namespace warpdp {

// threads = 0 means all cores. Results equal the reference engine's bit for
// bit and do not depend on the thread count.
std::unique_ptr<FwdEngine> make_fwd_cpu_engine(unsigned threads);

}  // namespace warpdp
