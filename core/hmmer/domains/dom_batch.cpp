#include "core/hmmer/domains/dom_batch.hpp"

#include <vector>

#include "core/base/parallel.hpp"

namespace warpdp {
namespace {

class DomCpuBatchKernels final : public DomBatchKernels {
public:
    DomCpuBatchKernels(std::string name, DomKernels k, unsigned threads)
        : name_(std::move(name)), k_(k), threads_(threads) {}
    std::string name() const override { return name_; }

    // One item a block: their costs differ by orders of magnitude. The
    // workspaces outlive the call, so their matrices stop growing (and
    // faulting in fresh pages) after the first batches.
    void parsers(const DomModel& model, std::span<const DomTarget> targets, std::span<DomParserOut> out) override {
        grow(parallel_workers(targets.size(), threads_, 1));
        parallel_for_workers(targets.size(), threads_, 1, [&](unsigned w, size_t t) {
            dom_run_parsers(k_, model, targets[t], ws_[w], out[t]);
        });
    }
    void envelopes(const DomModel& model, std::span<const DomTarget> targets, std::span<const DomEnvelopeJob> jobs,
                   std::span<DomEnvelopeOut> out) override {
        grow(parallel_workers(jobs.size(), threads_, 1));
        parallel_for_workers(jobs.size(), threads_, 1, [&](unsigned w, size_t z) {
            dom_run_envelope(k_, model, targets[jobs[z].target], jobs[z], ws_[w], out[z]);
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

std::unique_ptr<DomBatchKernels> make_dom_cpu_batch_kernels(std::string name, DomKernels k, unsigned threads) {
    return std::make_unique<DomCpuBatchKernels>(std::move(name), k, threads);
}

}  // namespace warpdp
