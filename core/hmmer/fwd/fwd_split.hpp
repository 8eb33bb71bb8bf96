// A Forward engine that splits each call between a GPU engine and the CPU
// engine, run side by side. On a GPU a target's rows are serial chains (the
// ordered sums of HMMER's parser), so one long target takes several times
// longer there than on one CPU core, and a call lasts as long as its
// slowest target; the GPU wins by running thousands at once. So the
// targets whose GPU time would stand out go to the CPU's threads, longest
// first, as long as the CPU's share still ends before the GPU's longest
// remaining target. Both engines give the same bits, so the split changes
// only the time.
#pragma once

#include <memory>

#include "core/hmmer/fwd/fwd_engine.hpp"

namespace warpdp {

struct FwdSplitCosts {
    // GPU: a target of L rows on a model of Q stripe positions takes about
    // L * (row_us + row_us_per_q * Q) microseconds, alone.
    double row_us = 5.5, row_us_per_q = 0.065;
    // CPU: nanoseconds per cell (M x L) on one thread.
    double cell_ns = 2.9;
};

std::unique_ptr<FwdEngine> make_fwd_split_engine(std::unique_ptr<FwdEngine> gpu, std::unique_ptr<FwdEngine> cpu,
                                                 unsigned cpu_threads, FwdSplitCosts costs = {});

}  // namespace warpdp
