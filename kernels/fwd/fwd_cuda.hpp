// The CUDA Forward-filter engine's test hook: rows in global memory (the
// path of models too wide for shared memory) with a smaller bound on the row
// scratch of one launch, so tests reach that path, and its split into
// several launches, with ordinary models and few targets. No CUDA types;
// exists only in CUDA builds.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/hmmer/fwd/fwd_engine.hpp"

namespace warpdp {

// CUDA Forward-filter engine over the given device indices (targets split
// between them). Throws ResourceError in a build
// without CUDA (fwd_cuda_absent.cpp) or when CUDA is unavailable.
std::unique_ptr<FwdEngine> make_fwd_cuda_engine(const std::vector<int>& devices);

// Device indices may repeat (each entry gets its own share of the targets).
// global_rows_scratch > 0: every model keeps its rows in global memory, at
// most that many bytes of them per launch.
std::unique_ptr<FwdEngine> make_fwd_cuda_engine_ex(const std::vector<int>& devices, uint64_t global_rows_scratch);

}  // namespace warpdp
