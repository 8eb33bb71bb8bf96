// The engine step of the run skeleton (docs/architecture.md, "The run
// skeleton"): one policy for every tool. The engines for --device start off
// the calling thread (EngineStart) while the input is read; with --device
// auto, chunks that come before the start is done and that the CPU finishes
// quickly go to CPU engines meanwhile (ChunkEngines); a CUDA start that fails
// under --device auto, or work the GPUs cannot hold, goes to the CPU with one
// warning. An explicit --device never falls back: its failure is the error.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "core/base/errors.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/engine_start.hpp"
#include "tools/common/tool_main.hpp"

namespace warpdp {

template <class E>
class ToolEngines {
public:
    // make(choice) builds the engines for a device choice: CUDA ones for its
    // GPUs, CPU ones when choice.cuda is false. It runs on the start's
    // thread and must capture nothing its caller owns.
    using Make = std::function<E(const DeviceChoice&)>;

    ToolEngines(std::string tool, const CommonOptions& common, Make make)
        : tool_(std::move(tool)), auto_(common.device == "auto"), quiet_(common.quiet), make_(make),
          chunks_(std::make_unique<EngineStart<E>>(common.device, make), auto_,
                  [make] { return make(DeviceChoice{}); }) {}

    // The engines for the next chunk; quick_on_cpu: the CPU engines would
    // finish it in about a tenth of a second.
    E& for_chunk(bool quick_on_cpu = false) {
        if (fallback_) return *fallback_;
        try {
            return chunks_.for_chunk(quick_on_cpu);
        } catch (const ResourceError& e) {
            return cpu_instead(e);
        }
    }

    // Under --device auto, CPU engines for work the started CUDA engines
    // refused (a sequence the GPUs cannot hold); otherwise (an explicit
    // --device, or CPU engines that refused it already) `why` is the error.
    E& cpu_for(const ResourceError& why) {
        if (!auto_ || !on_cuda()) throw why;
        if (!spill_) {
            if (!quiet_) warn(tool_, std::string(why.what()) + "; that work runs on the CPU");
            spill_.emplace(make_(DeviceChoice{}));
        }
        return *spill_;
    }

    // Whether the last for_chunk() gave CPU engines in place of started ones
    // still starting (their work is not the started engines' to count).
    bool on_cpu_while_starting() const noexcept { return !fallback_ && chunks_.on_cpu(); }

    // Whether the last for_chunk() gave CUDA engines.
    bool on_cuda() const noexcept { return !fallback_ && chunks_.on_cuda(); }
    // The GPUs the started engines run on (0 on the CPU).
    size_t gpu_count() const noexcept { return fallback_ ? 0 : chunks_.gpu_count(); }

    // The engines that did the run's work, for the summary: the started ones
    // (or the CPU ones that replaced them), else the CPU ones that took every
    // chunk while they started; nullptr before the first chunk.
    E* ran() noexcept {
        if (fallback_) return &*fallback_;
        if (E* started = chunks_.started()) return started;
        return chunks_.cpu();
    }
    // Chunks the CPU engines took while the started ones were starting.
    uint64_t cpu_chunks_while_starting() const noexcept { return chunks_.cpu_chunks(); }
    // Time the run waited for the start.
    double wait_seconds() const noexcept { return chunks_.wait_seconds(); }

    // Where the work ran, for the summary and --stats.
    std::string device() const {
        std::string d = fallback_ ? std::string("cpu") : chunks_.device_description();
        if (spill_) d += " + cpu";
        return d;
    }

private:
    E& cpu_instead(const ResourceError& e) {
        if (!auto_) throw;
        if (!quiet_) warn(tool_, std::string(e.what()) + "; running on the CPU");
        fallback_.emplace(make_(DeviceChoice{}));
        return *fallback_;
    }

    std::string tool_;
    bool auto_, quiet_;
    Make make_;
    ChunkEngines<E> chunks_;
    std::optional<E> fallback_;  // the CUDA start failed under --device auto
    std::optional<E> spill_;     // work the started engines could not hold
};

}  // namespace warpdp
