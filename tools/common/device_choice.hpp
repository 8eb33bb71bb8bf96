// The device a run uses: --device resolved against the GPUs this binary can
// see, and the GPUs it will not use hidden from the CUDA driver beforehand.
#pragma once

#include <string>
#include <vector>

namespace warpdp {

// Which engine family runs, and on which GPUs.
struct DeviceChoice {
    bool cuda = false;
    std::vector<int> gpus;  // non-empty iff cuda
    std::string describe() const;
};

// Resolves a --device value against the GPUs this binary can see. "auto"
// picks CUDA when a GPU is visible, else the CPU. Throws UsageError for a
// malformed value and ResourceError when CUDA is asked for but unavailable.
DeviceChoice resolve_device(const std::string& spec);

// Hides, before the CUDA driver starts, the GPUs a run will not use: the
// driver starts slower with every GPU of the host visible (docs/benchmarks.md).
// Sets
// CUDA_VISIBLE_DEVICES to the first entries of the visible list, so that
// device numbers stay as the user gave them: for "cuda:LIST" up to the
// highest index asked; for "auto" only the first GPU when the run's GPU work
// is below kAllGpusFromSeconds on one GPU (a second GPU then costs more in
// its start and per-chunk calls than it saves: docs/benchmarks.md). Any other
// value, or nothing to hide, leaves the environment alone. Call it before
// any thread starts (setenv) and before any CUDA call.
inline constexpr double kAllGpusFromSeconds = 1.0;
void hide_unused_gpus(const std::string& device_spec, double one_gpu_seconds);

}  // namespace warpdp
