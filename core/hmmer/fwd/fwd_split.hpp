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

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "core/hmmer/fwd/fwd_engine.hpp"

namespace warpdp {

struct FwdSplitCosts {
    // GPU: a target of L rows on a model of Q stripe positions takes about
    // L * (row_us + row_us_per_q * Q) microseconds, alone.
    double row_us = 5.5, row_us_per_q = 0.065;
    // CPU: nanoseconds per cell (M x L) on one thread.
    double cell_ns = 2.9;
    // Items the GPU runs at once (0: as many as come, so only its slowest
    // item bounds its time); with a bound, a call also lasts at least its
    // items' summed time over this.
    double gpu_concurrency = 0;

    double gpu_seconds(uint64_t L, int Q) const { return static_cast<double>(L) * (row_us + row_us_per_q * Q) * 1e-6; }
    double cpu_seconds(uint64_t L, int M) const { return static_cast<double>(L) * M * cell_ns * 1e-9; }
};

// Seconds an item (a target, an envelope) takes alone on the GPU and on one
// CPU thread.
struct SplitItemCost {
    double gpu_s = 0, cpu_s = 0;
};

// How many of `items`, sorted slowest on the GPU first, the CPU takes: the
// first ones, while its threads, sharing them, still finish before the GPU
// would: its slowest item left or, where the GPU runs at most
// gpu_concurrency items at once, the summed time of those left over that.
size_t split_cpu_share(std::span<const SplitItemCost> items, unsigned cpu_threads, double gpu_concurrency = 0);

// The items' indices, slowest on the GPU first, and how many of the first
// go to the CPU (split_cpu_share).
struct SplitPlan {
    std::vector<size_t> order;
    size_t cpu = 0;
};
SplitPlan plan_split(std::span<const SplitItemCost> costs, unsigned cpu_threads, double gpu_concurrency = 0);

// on_cpu on a thread of its own, on_gpu on this one; an error of either
// comes out once both have ended.
void run_side_by_side(const std::function<void()>& on_cpu, const std::function<void()>& on_gpu);

std::unique_ptr<FwdEngine> make_fwd_split_engine(std::unique_ptr<FwdEngine> gpu, std::unique_ptr<FwdEngine> cpu,
                                                 unsigned cpu_threads, FwdSplitCosts costs = {});

}  // namespace warpdp
