// The engines of gpu-hmmsearch's own last stage for its --device
// (docs/hmmer-filters.md §16.10): CPU engines (threaded over targets, and
// over models where each model's work is small), or kLastStageCudaWorkers staged engines on the
// CUDA batch kernels, each worker searching its own groups of models on its
// own stream. Under --device auto, work that the CPU threads
// would finish in about the time a CUDA start takes stays on the CPU, and a
// CUDA start that fails, or a call the GPU cannot hold, runs on the CPU
// with one warning; under --device cuda each is the error. The hits are the
// same on every device.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tools/hmmer/hmmsearch_last_stage.hpp"

namespace warpdp {

// The CPU engine's rate, in target residues times model nodes a second on
// one thread (§16.4's per-target costs: about 2.4 ms for 400 residues
// against M = 260), and the CPU seconds below which auto stays on the CPU.
inline constexpr double kLastStageCpuCellsPerSecond = 4e7;
inline constexpr double kLastStageGpuFromSeconds = 0.3;
// Whether auto runs the last stage on the GPU (with the CPU's threads
// taking their share beside it, §16.10), as cuda does, once it is large
// enough to pay for the CUDA start. False: the warp-form GPU last stage
// measured as fast as the CPU engine on 16 cores, not faster (faster on
// one workload, slower on another), and the shared split has not been
// timed on a GPU yet, so auto keeps the CPU engine.
inline constexpr bool kAutoTakesGpuLastStage = false;

// Groups of models searched at once on one GPU. One: a group's models
// already share each launch, and more workers measured slower (§16.10).
inline constexpr unsigned kLastStageCudaWorkers = 1;

// Workers for the CPU engine: as many as keep every model's work within one
// worker's fair share (so the models balance over them), at most one per
// kLastStageCpuThreadsPerWorker threads; a model's few hundred survivors
// leave many threads idle at its end, several models at once do not.
inline constexpr unsigned kLastStageCpuThreadsPerWorker = 2;
unsigned last_stage_cpu_workers(const std::vector<double>& model_cells, unsigned threads);

// `model_cells`: the work per model (last_stage_cells). The workers share `threads`.
LastStageEngines make_last_stage_engines(const std::string& tool, const std::string& device, unsigned threads,
                                         const std::vector<double>& model_cells);

}  // namespace warpdp
