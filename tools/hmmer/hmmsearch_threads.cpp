// gpu-hmmsearch's threads: docs/hmmer-filters.md §9.4.
#include "tools/hmmer/hmmsearch_threads.hpp"

#include <algorithm>

#include "core/base/errors.hpp"
#include "tools/hmmer/hmmsearch_options.hpp"

namespace warpdp {

HmmsearchThreads::HmmsearchThreads(std::optional<uint64_t> cpu, uint64_t cores, uint64_t models,
                                   std::optional<uint64_t> final_jobs, const std::string& filters)
    : capped_(cpu.has_value()), serial_(cpu == uint64_t{0}) {
    // hmmsearch --cpu N runs N workers; --cpu 0 searches in its main thread.
    budget_ = std::max<uint64_t>(1, capped_ ? *cpu : cores);
    jobs_ = std::max<uint64_t>(1, final_jobs.value_or(std::min<uint64_t>(std::max<uint64_t>(models, 1), budget_)));
    if (capped_) jobs_ = std::min(jobs_, budget_);
    if (capped_) {
        const uint64_t asked = whole_number("WARPDP_THREADS", filters);
        filters_ = std::to_string(asked == 0 ? budget_ : std::min(asked, budget_));
    } else {
        filters_ = filters;
    }
    free_ = budget_;
}

uint64_t HmmsearchThreads::widest() const { return capped_ ? (budget_ + jobs_ - 1) / jobs_ : budget_; }

uint64_t HmmsearchThreads::take() {
    if (going_ >= jobs_) throw InternalError("a final hmmsearch run started with all slots taken");
    ++going_;
    if (!capped_) return budget_;
    // The free threads over the free slots, rounded up: the first runs (the
    // longest models) get the remainder, and every later one still gets 1.
    const uint64_t slots = jobs_ - going_ + 1;
    const uint64_t share = (free_ + slots - 1) / slots;
    free_ -= share;
    return share;
}

void HmmsearchThreads::give(uint64_t threads) {
    if (going_ == 0) throw InternalError("a final hmmsearch run ended that never started");
    --going_;
    if (capped_) free_ += threads;
}

std::string HmmsearchThreads::cpu_option(uint64_t threads) const { return serial_ ? "0" : std::to_string(threads); }

}  // namespace warpdp
