// A Forward engine that gives a GPU engine the bulk of the targets and a CPU
// engine the longest ones, which a GPU would score a row at a time.
#include "core/hmmer/fwd/fwd_split.hpp"

#include <algorithm>
#include <future>
#include <numeric>
#include <thread>
#include <vector>

namespace warpdp {
namespace {

class FwdSplitEngine final : public FwdEngine {
public:
    FwdSplitEngine(std::unique_ptr<FwdEngine> gpu, std::unique_ptr<FwdEngine> cpu, unsigned threads, FwdSplitCosts c)
        : gpu_(std::move(gpu)), cpu_(std::move(cpu)),
          threads_(threads ? threads : std::max(1u, std::thread::hardware_concurrency())), costs_(c) {}

    std::string name() const override { return gpu_->name() + "+" + cpu_->name(); }

    void score_many(std::span<const FwdJob> jobs) override {
        struct Pair {
            uint32_t job, target;
        };
        std::vector<Pair> pairs;
        std::vector<SplitItemCost> costs;
        for (size_t i = 0; i < jobs.size(); ++i) {
            const FwdProfile& p = *jobs[i].profile;
            for (size_t j = 0; j < jobs[i].targets->size(); ++j) {
                const uint64_t L = jobs[i].targets->length(j);
                pairs.push_back({static_cast<uint32_t>(i), static_cast<uint32_t>(j)});
                costs.push_back({costs_.gpu_seconds(L, p.Q), costs_.cpu_seconds(L, p.M)});
            }
        }
        const SplitPlan plan = plan_split(costs, threads_);
        const std::vector<size_t>& order = plan.order;
        const size_t k = plan.cpu;
        // Each side scores sub-batches of its targets; results go back by index.
        struct Side {
            std::vector<SeqBatch> batches;
            std::vector<std::vector<float>> out;
            std::vector<std::vector<uint32_t>> which;
            std::vector<FwdJob> jobs;
        };
        const auto build = [&](Side& side, size_t from, size_t to) {
            side.batches.assign(jobs.size(), {});
            side.out.assign(jobs.size(), {});
            side.which.assign(jobs.size(), {});
            for (size_t x = from; x < to; ++x) side.which[pairs[order[x]].job].push_back(pairs[order[x]].target);
            for (size_t i = 0; i < jobs.size(); ++i) {
                auto& w = side.which[i];
                if (w.empty()) continue;
                std::sort(w.begin(), w.end());
                side.batches[i] = gather(*jobs[i].targets, w);
                side.out[i].resize(w.size());
                side.jobs.push_back({jobs[i].profile, &side.batches[i], side.out[i]});
            }
        };
        Side on_cpu, on_gpu;
        build(on_cpu, 0, k);
        build(on_gpu, k, pairs.size());
        run_side_by_side([&] { if (!on_cpu.jobs.empty()) cpu_->score_many(on_cpu.jobs); },
                         [&] { if (!on_gpu.jobs.empty()) gpu_->score_many(on_gpu.jobs); });
        for (const Side* side : {&on_cpu, &on_gpu})
            for (size_t i = 0; i < jobs.size(); ++i)
                for (size_t j = 0; j < side->which[i].size(); ++j) jobs[i].out[side->which[i][j]] = side->out[i][j];
    }

private:
    std::unique_ptr<FwdEngine> gpu_, cpu_;
    unsigned threads_;
    FwdSplitCosts costs_;
};

}  // namespace

size_t split_cpu_share(std::span<const SplitItemCost> items, unsigned cpu_threads, double gpu_concurrency) {
    const double threads = std::max(1u, cpu_threads);
    double gpu_left = 0;  // the GPU's summed time of items k.. (with a concurrency bound)
    if (gpu_concurrency > 0)
        for (const SplitItemCost& c : items) gpu_left += c.gpu_s;
    double cpu_total = 0;
    size_t k = 0;
    for (; k < items.size(); ++k) {
        const double gpu_end = gpu_concurrency > 0 ? std::max(items[k].gpu_s, gpu_left / gpu_concurrency) : items[k].gpu_s;
        if (std::max(items[k].cpu_s, (cpu_total + items[k].cpu_s) / threads) >= gpu_end) break;
        cpu_total += items[k].cpu_s;
        gpu_left -= items[k].gpu_s;
    }
    return k;
}

SplitPlan plan_split(std::span<const SplitItemCost> costs, unsigned cpu_threads, double gpu_concurrency) {
    SplitPlan plan;
    plan.order.resize(costs.size());
    std::iota(plan.order.begin(), plan.order.end(), size_t{0});
    std::stable_sort(plan.order.begin(), plan.order.end(),
                     [&](size_t a, size_t b) { return costs[a].gpu_s > costs[b].gpu_s; });
    std::vector<SplitItemCost> sorted;
    for (size_t x : plan.order) sorted.push_back(costs[x]);
    plan.cpu = split_cpu_share(sorted, cpu_threads, gpu_concurrency);
    return plan;
}

void run_side_by_side(const std::function<void()>& on_cpu, const std::function<void()>& on_gpu) {
    auto cpu_done = std::async(std::launch::async, on_cpu);
    try {
        on_gpu();
    } catch (...) {
        cpu_done.wait();
        throw;
    }
    cpu_done.get();
}

std::unique_ptr<FwdEngine> make_fwd_split_engine(std::unique_ptr<FwdEngine> gpu, std::unique_ptr<FwdEngine> cpu,
                                                 unsigned cpu_threads, FwdSplitCosts costs) {
    return std::make_unique<FwdSplitEngine>(std::move(gpu), std::move(cpu), cpu_threads, costs);
}

}  // namespace warpdp
