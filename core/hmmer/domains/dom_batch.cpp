#include "core/hmmer/domains/dom_batch.hpp"

#include <algorithm>
#include <vector>

#include "core/base/parallel.hpp"

namespace warpdp {
namespace {

// (call, item) pairs of a many-model call, costliest first: one thread loop
// over all of them, so one model's few items leave no thread idle, and a
// long item starts first instead of holding the loop's end.
template <class Call, class Count, class Cost>
std::vector<std::pair<uint32_t, uint32_t>> costliest_first(std::span<const Call> calls, Count count, Cost cost) {
    std::vector<std::pair<uint32_t, uint32_t>> items;
    std::vector<double> costs;
    for (size_t c = 0; c < calls.size(); ++c)
        for (size_t i = 0; i < count(calls[c]); ++i) {
            items.emplace_back(static_cast<uint32_t>(c), static_cast<uint32_t>(i));
            costs.push_back(cost(calls[c], i));
        }
    std::vector<size_t> order(items.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return costs[a] > costs[b]; });
    std::vector<std::pair<uint32_t, uint32_t>> sorted;
    for (size_t k : order) sorted.push_back(items[k]);
    return sorted;
}

class DomCpuBatchKernels final : public DomBatchKernels {
public:
    DomCpuBatchKernels(std::string name, DomKernels k, unsigned threads)
        : name_(std::move(name)), k_(k), threads_(threads) {}
    std::string name() const override { return name_; }

    // One item a block: their costs differ by orders of magnitude. The
    // workspaces outlive the call, so their matrices stop growing (and
    // faulting in fresh pages) after the first batches.
    void parsers(std::span<const DomParsersCall> calls) override {
        const auto items = costliest_first(
            calls, [](const DomParsersCall& c) { return c.targets.size(); },
            [](const DomParsersCall& c, size_t t) {
                return static_cast<double>(c.targets[t].dsq.size()) * c.model.odds->M;
            });
        grow(parallel_workers(items.size(), threads_, 1));
        parallel_for_workers(items.size(), threads_, 1, [&](unsigned w, size_t x) {
            const auto [c, t] = items[x];
            dom_run_parsers(k_, calls[c].model, calls[c].targets[t], ws_[w], calls[c].out[t]);
        });
    }
    void envelopes(std::span<const DomEnvelopesCall> calls) override {
        const auto items = costliest_first(
            calls, [](const DomEnvelopesCall& c) { return c.jobs.size(); },
            [](const DomEnvelopesCall& c, size_t z) {
                return static_cast<double>(c.jobs[z].j - c.jobs[z].i + 1) * c.model.odds->M;
            });
        grow(parallel_workers(items.size(), threads_, 1));
        parallel_for_workers(items.size(), threads_, 1, [&](unsigned w, size_t x) {
            const auto [c, z] = items[x];
            const DomEnvelopesCall& call = calls[c];
            dom_run_envelope(k_, call.model, call.targets[call.jobs[z].target], call.jobs[z], ws_[w], call.out[z]);
        });
    }

private:
    void grow(unsigned workers) {
        if (ws_.size() < workers) ws_.resize(workers);
    }
    std::string name_;
    DomKernels k_;
    unsigned threads_;
    std::vector<DomKernelWorkspace> ws_;
};

}  // namespace

void dom_parsers(DomBatchKernels& k, const DomModel& model, std::span<const DomTarget> targets,
                 std::span<DomParserOut> out) {
    const DomParsersCall call{model, targets, out};
    k.parsers(std::span<const DomParsersCall>(&call, 1));
}

void dom_envelopes(DomBatchKernels& k, const DomModel& model, std::span<const DomTarget> targets,
                   std::span<const DomEnvelopeJob> jobs, std::span<DomEnvelopeOut> out) {
    const DomEnvelopesCall call{model, targets, jobs, out};
    k.envelopes(std::span<const DomEnvelopesCall>(&call, 1));
}

std::unique_ptr<DomBatchKernels> make_dom_cpu_batch_kernels(std::string name, DomKernels k, unsigned threads) {
    return std::make_unique<DomCpuBatchKernels>(std::move(name), k, threads);
}

}  // namespace warpdp
