#include "core/hmmer/domains/dom_split.hpp"

#include <algorithm>
#include <thread>
#include <vector>

#include "core/hmmer/fwd/fwd_profile.hpp"

namespace warpdp {

namespace {

// An item of a many-model call: its call, its index there.
struct Item {
    uint32_t call, index;
};

// f(first, end) for each run [first, end) of `items` of one call.
template <class F>
void each_call_run(const std::vector<Item>& items, F f) {
    for (size_t b = 0; b < items.size();) {
        size_t e = b;
        while (e < items.size() && items[e].call == items[b].call) ++e;
        f(b, e);
        b = e;
    }
}

class DomSplitBatchKernels final : public DomBatchKernels {
public:
    DomSplitBatchKernels(std::unique_ptr<DomBatchKernels> gpu, std::unique_ptr<DomBatchKernels> cpu, unsigned threads,
                         FwdSplitCosts costs)
        : gpu_(std::move(gpu)), cpu_(std::move(cpu)),
          threads_(threads ? threads : std::max(1u, std::thread::hardware_concurrency())), costs_(costs) {}

    std::string name() const override { return gpu_->name() + "+" + cpu_->name(); }
    double alignment_seconds() const override { return gpu_->alignment_seconds(); }

    void parsers(std::span<const DomParsersCall> calls) override {
        std::vector<Item> items;
        std::vector<SplitItemCost> costs;
        for (uint32_t c = 0; c < calls.size(); ++c)
            for (uint32_t t = 0; t < calls[c].targets.size(); ++t) {
                items.push_back({c, t});
                costs.push_back(cost(*calls[c].model.odds, calls[c].targets[t].dsq.size()));
            }
        const auto [on_cpu, on_gpu] = split(items, costs);
        if (on_cpu.empty()) return gpu_->parsers(calls);
        // Each side's targets and outs in item order, a call per model; the
        // rows' spans point into the caller's arena, so only the scores come back.
        struct Side {
            std::vector<DomTarget> targets;
            std::vector<DomParserOut> out;
            std::vector<DomParsersCall> calls;
        };
        const auto make = [&](const std::vector<Item>& which, Side& s) {
            for (const Item& x : which) {
                s.targets.push_back(calls[x.call].targets[x.index]);
                s.out.push_back(calls[x.call].out[x.index]);
            }
            each_call_run(which, [&](size_t b, size_t e) {
                s.calls.push_back({calls[which[b].call].model, std::span(s.targets).subspan(b, e - b),
                                   std::span(s.out).subspan(b, e - b)});
            });
        };
        Side cs, gs;
        make(on_cpu, cs);
        make(on_gpu, gs);
        run_side_by_side([&] { cpu_->parsers(cs.calls); }, [&] { if (!gs.calls.empty()) gpu_->parsers(gs.calls); });
        for (size_t k = 0; k < on_cpu.size(); ++k) calls[on_cpu[k].call].out[on_cpu[k].index] = cs.out[k];
        for (size_t k = 0; k < on_gpu.size(); ++k) calls[on_gpu[k].call].out[on_gpu[k].index] = gs.out[k];
    }

    void envelopes(std::span<const DomEnvelopesCall> calls) override {
        std::vector<Item> items;
        std::vector<SplitItemCost> costs;
        for (uint32_t c = 0; c < calls.size(); ++c)
            for (uint32_t z = 0; z < calls[c].jobs.size(); ++z) {
                items.push_back({c, z});
                const DomEnvelopeJob& j = calls[c].jobs[z];
                costs.push_back(cost(*calls[c].model.odds, static_cast<uint64_t>(j.j - j.i + 1)));
            }
        const auto [on_cpu, on_gpu] = split(items, costs);
        if (on_cpu.empty()) return gpu_->envelopes(calls);
        // (each side's jobs keep indexing their call's targets)
        struct Side {
            std::vector<DomEnvelopeJob> jobs;
            std::vector<DomEnvelopeOut> out;
            std::vector<DomEnvelopesCall> calls;
        };
        const auto make = [&](const std::vector<Item>& which, Side& s) {
            for (const Item& x : which) s.jobs.push_back(calls[x.call].jobs[x.index]);
            s.out.resize(which.size());
            each_call_run(which, [&](size_t b, size_t e) {
                const DomEnvelopesCall& c = calls[which[b].call];
                s.calls.push_back(
                    {c.model, c.targets, std::span(s.jobs).subspan(b, e - b), std::span(s.out).subspan(b, e - b)});
            });
        };
        Side cs, gs;
        make(on_cpu, cs);
        make(on_gpu, gs);
        run_side_by_side([&] { cpu_->envelopes(cs.calls); }, [&] { if (!gs.calls.empty()) gpu_->envelopes(gs.calls); });
        for (size_t k = 0; k < on_cpu.size(); ++k) calls[on_cpu[k].call].out[on_cpu[k].index] = std::move(cs.out[k]);
        for (size_t k = 0; k < on_gpu.size(); ++k) calls[on_gpu[k].call].out[on_gpu[k].index] = std::move(gs.out[k]);
    }

private:
    SplitItemCost cost(const FwdProfile& fp, uint64_t rows) const {
        return {costs_.gpu_seconds(rows, fp.Q), costs_.cpu_seconds(rows, fp.M)};
    }

    // The items of each side, in item order (so grouped by call).
    std::pair<std::vector<Item>, std::vector<Item>> split(const std::vector<Item>& items,
                                                          const std::vector<SplitItemCost>& costs) const {
        const SplitPlan plan = plan_split(costs, threads_, costs_.gpu_concurrency);
        const auto cut = plan.order.begin() + static_cast<std::ptrdiff_t>(plan.cpu);
        std::vector<size_t> cpu(plan.order.begin(), cut), gpu(cut, plan.order.end());
        std::sort(cpu.begin(), cpu.end());
        std::sort(gpu.begin(), gpu.end());
        std::pair<std::vector<Item>, std::vector<Item>> s;
        for (size_t x : cpu) s.first.push_back(items[x]);
        for (size_t x : gpu) s.second.push_back(items[x]);
        return s;
    }

    std::unique_ptr<DomBatchKernels> gpu_, cpu_;
    unsigned threads_;
    FwdSplitCosts costs_;
};

}  // namespace

std::unique_ptr<DomBatchKernels> make_dom_split_batch_kernels(std::unique_ptr<DomBatchKernels> gpu,
                                                              std::unique_ptr<DomBatchKernels> cpu,
                                                              unsigned cpu_threads, FwdSplitCosts costs) {
    return std::make_unique<DomSplitBatchKernels>(std::move(gpu), std::move(cpu), cpu_threads, costs);
}

}  // namespace warpdp
