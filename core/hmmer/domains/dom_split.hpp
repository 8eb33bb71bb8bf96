// Batch kernels that give a GPU's kernels the bulk of a batch and the CPU's
// the longest items, run side by side (docs/hmmer-filters.md §16.10): on a
// GPU a job's rows are serial, so one long target or envelope would hold
// the whole call. The same rule as the Forward filter's split
// (core/hmmer/fwd/fwd_split.hpp); both sides give the same bits, so the
// split changes only the time.
#pragma once

#include <memory>

#include "core/hmmer/domains/dom_batch.hpp"
#include "core/hmmer/fwd/fwd_split.hpp"

namespace warpdp {

std::unique_ptr<DomBatchKernels> make_dom_split_batch_kernels(std::unique_ptr<DomBatchKernels> gpu,
                                                              std::unique_ptr<DomBatchKernels> cpu,
                                                              unsigned cpu_threads, FwdSplitCosts costs = {});

}  // namespace warpdp
