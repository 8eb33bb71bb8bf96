// Batch kernels that give a GPU's kernels the bulk of a batch and the CPU's
// the longest items, run side by side (docs/hmmer-filters.md §16.10): on a
// GPU a job's rows are serial, so one long target or envelope would hold
// the whole call; and the CPU's threads take their share of the work where
// the GPU, running a bounded number of jobs at once, would end later. The same rule as the Forward filter's split
// (core/hmmer/fwd/fwd_split.hpp); both sides give the same bits, so the
// split changes only the time.
#pragma once

#include <memory>

#include "core/hmmer/domains/dom_batch.hpp"
#include "core/hmmer/fwd/fwd_split.hpp"

namespace warpdp {

// The post-filter items' costs (docs/hmmer-filters.md §16.10, measured on
// an H100 by bench/bench_dom_gpu): a job alone on the warp-form kernels
// takes about 17 + 0.64 Q us a row; the CPU's vector kernels about 16 ns a
// cell (Forward, Backward, decoding and the optimal-accuracy stage). The
// GPU runs a few hundred jobs at once, as many as its batch memory and
// registers allow: 512 is an estimate, not yet timed in the tool.
inline constexpr FwdSplitCosts kDomSplitCosts{.row_us = 17.0, .row_us_per_q = 0.64, .cell_ns = 16.0,
                                              .gpu_concurrency = 512.0};

std::unique_ptr<DomBatchKernels> make_dom_split_batch_kernels(std::unique_ptr<DomBatchKernels> gpu,
                                                              std::unique_ptr<DomBatchKernels> cpu,
                                                              unsigned cpu_threads,
                                                              FwdSplitCosts costs = kDomSplitCosts);

}  // namespace warpdp
