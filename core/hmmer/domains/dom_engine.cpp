#include "core/hmmer/domains/dom_engine.hpp"

#include <vector>

#include "core/base/parallel.hpp"

namespace warpdp {
namespace {

class DomFormEngine final : public DomEngine {
public:
    DomFormEngine(std::string name, DomKernels kernels, unsigned threads)
        : name_(std::move(name)), kernels_(kernels), threads_(threads) {}
    std::string name() const override { return name_; }
    void search(const DomModel& model, std::span<const DomTarget> targets, const DomSettings& settings,
                std::span<DomResult> out) override {
        // One target a block: their costs differ by orders of magnitude.
        // The workspaces outlive the call, so their matrices stop growing
        // (and faulting in fresh pages) after the first batches; a search
        // reseeds its generator itself, so no result depends on what a
        // workspace did before.
        const unsigned workers = parallel_workers(targets.size(), threads_, 1);
        while (ws_.size() < workers) ws_.emplace_back(settings.seed);
        parallel_for_workers(targets.size(), threads_, 1, [&](unsigned w, size_t j) {
            out[j].outcome = dom_search_target(kernels_, model, targets[j], settings, ws_[w], out[j].hit);
        });
    }

private:
    std::string name_;
    DomKernels kernels_;
    unsigned threads_;
    std::vector<DomWorkspace> ws_;
};

}  // namespace

std::unique_ptr<DomEngine> make_dom_reference_engine() {
    return std::make_unique<DomFormEngine>("reference", dom_reference_kernels(), 1);
}

std::unique_ptr<DomEngine> make_dom_cpu_engine(unsigned threads) {
    return std::make_unique<DomFormEngine>("cpu-vector4", dom_vector_kernels(), threads);
}

}  // namespace warpdp
