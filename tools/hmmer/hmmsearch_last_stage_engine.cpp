#include "tools/hmmer/hmmsearch_last_stage_engine.hpp"

#include <algorithm>
#include <atomic>

#include "core/base/errors.hpp"
#include "core/hmmer/domains/dom_split.hpp"
#include "kernels/dom/dom_batch_cuda.hpp"
#include "tools/common/device_choice.hpp"
#include "tools/common/tool_main.hpp"

namespace warpdp {
namespace {

// The GPU's batch kernels, with the CPU's taking any call the GPU refuses
// (a job larger than its memory); the first refusal of a run is told once.
class CudaElseCpu final : public DomBatchKernels {
public:
    CudaElseCpu(std::string tool, std::unique_ptr<DomBatchKernels> cuda, std::unique_ptr<DomBatchKernels> cpu,
                std::shared_ptr<std::atomic<bool>> told)
        : tool_(std::move(tool)), cuda_(std::move(cuda)), cpu_(std::move(cpu)), told_(std::move(told)) {}
    std::string name() const override { return cuda_->name(); }
    double alignment_seconds() const override { return cuda_->alignment_seconds(); }
    void parsers(std::span<const DomParsersCall> calls) override {
        try {
            cuda_->parsers(calls);
        } catch (const ResourceError& e) {
            refused(e);
            cpu_->parsers(calls);
        }
    }
    void envelopes(std::span<const DomEnvelopesCall> calls) override {
        try {
            cuda_->envelopes(calls);
        } catch (const ResourceError& e) {
            refused(e);
            cpu_->envelopes(calls);
        }
    }

private:
    void refused(const ResourceError& e) {
        if (!told_->exchange(true)) warn(tool_, std::string(e.what()) + ": the CPU takes what the GPU cannot hold");
    }
    std::string tool_;
    std::unique_ptr<DomBatchKernels> cuda_, cpu_;
    std::shared_ptr<std::atomic<bool>> told_;  // (one for all the workers' kernels)
};

}  // namespace

unsigned last_stage_cpu_workers(const std::vector<double>& model_cells, unsigned threads) {
    double total = 0, largest = 0;
    for (double c : model_cells) {
        total += c;
        largest = std::max(largest, c);
    }
    unsigned k = 1;
    while (2 * k * kLastStageCpuThreadsPerWorker <= threads && 2 * k <= model_cells.size() && largest * 2 * k <= total)
        k *= 2;
    return k;
}

LastStageEngines make_last_stage_engines(const std::string& tool, const std::string& device, unsigned threads,
                                         const std::vector<double>& model_cells) {
    const bool auto_device = device == "auto";
    double cells = 0;
    for (double c : model_cells) cells += c;
    const double cpu_seconds = cells / (kLastStageCpuCellsPerSecond * std::max(1u, threads));
    const unsigned cpu_workers = last_stage_cpu_workers(model_cells, threads);
    const LastStageEngines on_cpu{cpu_workers,
                                  [host = std::max(1u, threads / cpu_workers)] { return make_dom_cpu_engine(host); }};
    // (decided before resolve_device: listing the GPUs starts the CUDA driver, a few tenths of a second)
    if (auto_device && (!kAutoTakesGpuLastStage || cpu_seconds < kLastStageGpuFromSeconds)) return on_cpu;
    const DeviceChoice choice = resolve_device(device);
    if (!choice.cuda) return on_cpu;
    // Several models at once, each worker on its own stream, buffers, 1/K of
    // the matrix budget and of the host threads (§16.10).
    const unsigned workers = kLastStageCudaWorkers;
    const unsigned host = std::max(1u, threads / workers);
    const int gpu = choice.gpus.front();
    const double share = 1.0 / workers;
    // (the first worker's kernels are made here: a start that fails under
    // auto gives the CPU engine, as it did before the workers)
    std::unique_ptr<DomBatchKernels> first;
    try {
        first = make_dom_cuda_batch_kernels(gpu, share);
    } catch (const ResourceError& e) {
        if (!auto_device) throw;
        warn(tool, std::string(e.what()) + ": the stages after the filters run on the CPU");
        return on_cpu;
    }
    auto told = std::make_shared<std::atomic<bool>>(false);
    auto pending = std::make_shared<std::unique_ptr<DomBatchKernels>>(std::move(first));
    auto make = [tool, auto_device, host, gpu, share, told, pending]() -> std::unique_ptr<DomEngine> {
        std::unique_ptr<DomBatchKernels> cuda = std::move(*pending);
        if (!cuda) {
            try {
                cuda = make_dom_cuda_batch_kernels(gpu, share);
            } catch (const ResourceError& e) {
                if (!auto_device) throw;
                if (!told->exchange(true))
                    warn(tool, std::string(e.what()) + ": a worker of the last stage runs on the CPU");
                return make_dom_cpu_engine(host);
            }
        }
        if (auto_device)
            cuda = std::make_unique<CudaElseCpu>(tool, std::move(cuda),
                                                 make_dom_cpu_batch_kernels("cpu-vector4", dom_vector_kernels(), host),
                                                 told);
        // The longest targets and envelopes, whose serial rows would hold a
        // GPU call, go to the CPU's threads beside it (§16.10).
        auto split = make_dom_split_batch_kernels(
            std::move(cuda), make_dom_cpu_batch_kernels("cpu-vector4", dom_vector_kernels(), host), host);
        std::string name = split->name();
        return make_dom_staged_engine(std::move(name), dom_vector_kernels(), std::move(split), host,
                                      uint64_t{1} << 22);
    };
    return {workers, std::move(make)};
}

}  // namespace warpdp
