#include "tools/hmmer/hmmsearch_last_stage_engine.hpp"

#include <algorithm>

#include "core/base/errors.hpp"
#include "core/hmmer/domains/dom_split.hpp"
#include "kernels/dom/dom_batch_cuda.hpp"
#include "tools/common/device_choice.hpp"
#include "tools/common/tool_main.hpp"

namespace warpdp {
namespace {

// The GPU's batch kernels, with the CPU's taking any call the GPU refuses
// (a job larger than its memory); the first refusal is told once.
class CudaElseCpu final : public DomBatchKernels {
public:
    CudaElseCpu(std::string tool, std::unique_ptr<DomBatchKernels> cuda, std::unique_ptr<DomBatchKernels> cpu)
        : tool_(std::move(tool)), cuda_(std::move(cuda)), cpu_(std::move(cpu)) {}
    std::string name() const override { return cuda_->name(); }
    double alignment_seconds() const override { return cuda_->alignment_seconds(); }
    void parsers(const DomModel& model, std::span<const DomTarget> targets, std::span<DomParserOut> out) override {
        try {
            cuda_->parsers(model, targets, out);
        } catch (const ResourceError& e) {
            refused(e);
            cpu_->parsers(model, targets, out);
        }
    }
    void envelopes(const DomModel& model, std::span<const DomTarget> targets, std::span<const DomEnvelopeJob> jobs,
                   std::span<DomEnvelopeOut> out) override {
        try {
            cuda_->envelopes(model, targets, jobs, out);
        } catch (const ResourceError& e) {
            refused(e);
            cpu_->envelopes(model, targets, jobs, out);
        }
    }

private:
    void refused(const ResourceError& e) {
        if (!told_) warn(tool_, std::string(e.what()) + ": the CPU takes what the GPU cannot hold");
        told_ = true;
    }
    std::string tool_;
    std::unique_ptr<DomBatchKernels> cuda_, cpu_;
    bool told_ = false;
};

}  // namespace

std::unique_ptr<DomEngine> make_last_stage_engine(const std::string& tool, const std::string& device,
                                                  unsigned threads, double cells) {
    const bool auto_device = device == "auto";
    const DeviceChoice choice = resolve_device(device);
    const double cpu_seconds = cells / (kLastStageCpuCellsPerSecond * std::max(1u, threads));
    if (!choice.cuda || (auto_device && (!kAutoTakesGpuLastStage || cpu_seconds < kLastStageGpuFromSeconds)))
        return make_dom_cpu_engine(threads);
    std::unique_ptr<DomBatchKernels> cuda;
    try {
        cuda = make_dom_cuda_batch_kernels(choice.gpus.front());
    } catch (const ResourceError& e) {
        if (!auto_device) throw;
        warn(tool, std::string(e.what()) + ": the stages after the filters run on the CPU");
        return make_dom_cpu_engine(threads);
    }
    if (auto_device)
        cuda = std::make_unique<CudaElseCpu>(tool, std::move(cuda),
                                             make_dom_cpu_batch_kernels("cpu-vector4", dom_vector_kernels(), threads));
    // The longest targets and envelopes, whose serial rows would hold a GPU
    // call, go to the CPU's threads beside it (docs/hmmer-filters.md §16.10).
    auto split = make_dom_split_batch_kernels(std::move(cuda),
                                              make_dom_cpu_batch_kernels("cpu-vector4", dom_vector_kernels(), threads),
                                              threads);
    std::string name = split->name();
    return make_dom_staged_engine(std::move(name), dom_vector_kernels(), std::move(split), threads, uint64_t{1} << 22);
}

}  // namespace warpdp
