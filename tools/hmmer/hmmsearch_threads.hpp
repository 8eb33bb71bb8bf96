// How gpu-hmmsearch keeps its threads within hmmsearch's --cpu
// (docs/hmmer-filters.md §9.4): the filters' --threads, how many final
// hmmsearch runs go at once, and each run's --cpu.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace warpdp {

class HmmsearchThreads {
public:
    // cpu: --cpu's value, if given (0: hmmsearch's serial mode, one
    // thread); cores: the cores this process may use; filters: WARPDP_THREADS
    // ("0": all cores); final_jobs: WARPDP_FINAL_JOBS.
    HmmsearchThreads(std::optional<uint64_t> cpu, uint64_t cores, uint64_t models, std::optional<uint64_t> final_jobs,
                     const std::string& filters);

    // With --cpu the runs and the filters share its threads, and nothing
    // runs beside the filters. Without it every run takes every core, and
    // the runs may search beside the filters (the system shares the cores).
    bool capped() const { return capped_; }
    uint64_t budget() const { return budget_; }
    uint64_t jobs() const { return jobs_; }             // final runs at once
    const std::string& filters() const { return filters_; }  // gpu-viterbi --threads
    uint64_t widest() const;                             // the most threads one run gets

    // A run starting takes a share of the threads free, its --cpu, and
    // gives it back when it ends: the shares of the runs going never add up
    // to more than budget(), each at least 1. Only with fewer than jobs()
    // runs going.
    uint64_t take();
    void give(uint64_t threads);
    // The --cpu a run with `threads` passes: "0" under --cpu 0.
    std::string cpu_option(uint64_t threads) const;

private:
    bool capped_ = false, serial_ = false;
    uint64_t budget_ = 1, jobs_ = 1;
    std::string filters_;
    uint64_t free_ = 1, going_ = 0;
};

}  // namespace warpdp
