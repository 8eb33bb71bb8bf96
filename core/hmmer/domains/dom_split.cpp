#include "core/hmmer/domains/dom_split.hpp"

#include <algorithm>
#include <thread>
#include <vector>

#include "core/hmmer/fwd/fwd_profile.hpp"

namespace warpdp {

namespace {

class DomSplitBatchKernels final : public DomBatchKernels {
public:
    DomSplitBatchKernels(std::unique_ptr<DomBatchKernels> gpu, std::unique_ptr<DomBatchKernels> cpu, unsigned threads,
                         FwdSplitCosts costs)
        : gpu_(std::move(gpu)), cpu_(std::move(cpu)),
          threads_(threads ? threads : std::max(1u, std::thread::hardware_concurrency())), costs_(costs) {}

    std::string name() const override { return gpu_->name() + "+" + cpu_->name(); }
    double alignment_seconds() const override { return gpu_->alignment_seconds(); }

    void parsers(const DomModel& model, std::span<const DomTarget> targets, std::span<DomParserOut> out) override {
        std::vector<uint64_t> rows(targets.size());
        for (size_t t = 0; t < targets.size(); ++t) rows[t] = targets[t].dsq.size();
        const Split s = split(*model.odds, rows);
        if (s.cpu.empty()) return gpu_->parsers(model, targets, out);
        // (the rows' spans point into the caller's arena: only the scores come back)
        const auto side = [&](const std::vector<size_t>& which, std::vector<DomTarget>& t, std::vector<DomParserOut>& o) {
            for (size_t x : which) {
                t.push_back(targets[x]);
                o.push_back(out[x]);
            }
        };
        std::vector<DomTarget> ct, gt;
        std::vector<DomParserOut> co, go;
        side(s.cpu, ct, co);
        side(s.gpu, gt, go);
        run_side_by_side([&] { cpu_->parsers(model, ct, co); }, [&] { if (!gt.empty()) gpu_->parsers(model, gt, go); });
        for (size_t k = 0; k < s.cpu.size(); ++k) out[s.cpu[k]] = co[k];
        for (size_t k = 0; k < s.gpu.size(); ++k) out[s.gpu[k]] = go[k];
    }

    void envelopes(const DomModel& model, std::span<const DomTarget> targets, std::span<const DomEnvelopeJob> jobs,
                   std::span<DomEnvelopeOut> out) override {
        std::vector<uint64_t> rows(jobs.size());
        for (size_t z = 0; z < jobs.size(); ++z) rows[z] = static_cast<uint64_t>(jobs[z].j - jobs[z].i + 1);
        const Split s = split(*model.odds, rows);
        if (s.cpu.empty()) return gpu_->envelopes(model, targets, jobs, out);
        const auto side = [&](const std::vector<size_t>& which, std::vector<DomEnvelopeJob>& j) {
            for (size_t x : which) j.push_back(jobs[x]);
        };
        std::vector<DomEnvelopeJob> cj, gj;
        side(s.cpu, cj);
        side(s.gpu, gj);
        std::vector<DomEnvelopeOut> co(cj.size()), go(gj.size());
        run_side_by_side([&] { cpu_->envelopes(model, targets, cj, co); },
                         [&] { if (!gj.empty()) gpu_->envelopes(model, targets, gj, go); });
        for (size_t k = 0; k < s.cpu.size(); ++k) out[s.cpu[k]] = std::move(co[k]);
        for (size_t k = 0; k < s.gpu.size(); ++k) out[s.gpu[k]] = std::move(go[k]);
    }

private:
    struct Split {
        std::vector<size_t> cpu, gpu;  // item indices, each in batch order
    };

    Split split(const FwdProfile& fp, const std::vector<uint64_t>& rows) const {
        std::vector<SplitItemCost> costs;
        for (uint64_t L : rows) costs.push_back({costs_.gpu_seconds(L, fp.Q), costs_.cpu_seconds(L, fp.M)});
        const SplitPlan plan = plan_split(costs, threads_);
        const auto cut = plan.order.begin() + static_cast<std::ptrdiff_t>(plan.cpu);
        Split s{{plan.order.begin(), cut}, {cut, plan.order.end()}};
        std::sort(s.cpu.begin(), s.cpu.end());
        std::sort(s.gpu.begin(), s.gpu.end());
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
