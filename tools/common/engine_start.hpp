// Starting a tool's engines off the calling thread, and not waiting for a
// start that turned out not to be needed.
//
// Starting the CUDA driver and each GPU's context takes a good part of a
// second (the driver makes the contexts one after another, threads or not),
// so the tools start their engines while the reader parses the first chunks,
// which the CPU engines take meanwhile. When they have taken every chunk (a
// small model on many cores), nothing waits for the start: waiting for a
// start nobody used cost a short run about a third of its time on a 2-GPU
// host (docs/benchmarks.md, "CUDA start, and a second GPU").
//
// Ending without it needs the process's cooperation: run_tool() allows it
// (allow_abandoned_starts) and then ends the process with std::_Exit once
// the tool's outputs are complete. Elsewhere (tests, benchmarks) the
// destructor waits.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "tools/common/device_choice.hpp"

namespace warpdp {

// run_tool() calls this: from then on a start still running when its owner
// goes is left to run on, and starts_still_running() tells run_tool() to end
// the process without waiting for it.
void allow_abandoned_starts() noexcept;
bool abandoned_starts_allowed() noexcept;
// Starts whose thread has not finished (their engines not yet freed).
bool starts_still_running() noexcept;

namespace detail {
std::atomic<int>& running_starts() noexcept;
}

// E: the engines (movable). make(device) builds them for the device choice;
// it runs on the start's thread and must capture nothing that its caller owns.
template <class E>
class EngineStart {
public:
    struct Started {
        DeviceChoice device;
        E engines;
    };
    using Make = std::function<E(const DeviceChoice&)>;
    using Resolve = std::function<DeviceChoice()>;

    // For a --device value (resolve_device).
    EngineStart(const std::string& device_spec, Make make)
        : EngineStart([device_spec] { return resolve_device(device_spec); }, std::move(make)) {}

    // resolve: the device choice (run on the start's thread: listing the GPUs starts the driver).
    EngineStart(Resolve resolve, Make make) : state_(std::make_shared<State>()) {
        ++detail::running_starts();
        try {
            thread_ = std::thread([st = state_, resolve = std::move(resolve), make = std::move(make)]() mutable {
                run(*st, resolve, make);
                st.reset();  // may free engines nobody took (an abandoned start)
                --detail::running_starts();
            });
        } catch (...) {  // no thread (ulimit -u or -v): nothing runs on
            --detail::running_starts();
            throw;
        }
    }

    ~EngineStart() {
        if (!thread_.joinable()) return;
        bool finished;
        {
            std::lock_guard<std::mutex> lock(state_->m);
            finished = state_->finished;
        }
        if (finished || !abandoned_starts_allowed()) thread_.join();
        else thread_.detach();
    }
    EngineStart(const EngineStart&) = delete;
    EngineStart& operator=(const EngineStart&) = delete;

    // Before take(): true once the engines (or the start's error) are there.
    bool ready() const {
        std::lock_guard<std::mutex> lock(state_->m);
        return state_->started || state_->error;
    }

    // Blocks for the engines; rethrows the start's error. Once only.
    Started take() {
        std::unique_lock<std::mutex> lock(state_->m);
        state_->cv.wait(lock, [&] { return state_->started || state_->error; });
        if (!state_->started) std::rethrow_exception(state_->error);
        Started s = std::move(*state_->started);
        state_->started.reset();
        return s;
    }

private:
    struct State {
        std::mutex m;
        std::condition_variable cv;
        std::optional<Started> started;
        std::exception_ptr error;
        bool finished = false;
    };

    static void run(State& st, Resolve& resolve, Make& make) {
        std::optional<Started> started;
        std::exception_ptr error;
        try {
            const DeviceChoice dev = resolve();
            started.emplace(Started{dev, make(dev)});
        } catch (...) {
            error = std::current_exception();
        }
        {
            std::lock_guard<std::mutex> lock(st.m);
            st.started = std::move(started);
            st.error = error;
            st.finished = true;
        }
        st.cv.notify_all();
    }

    std::shared_ptr<State> state_;
    std::thread thread_;
};

// The engines for each chunk of a run whose engines start in the background.
// With cpu_while_starting (--device auto), a chunk that comes before the
// start is done, and that the CPU engines finish quickly, goes to CPU engines
// made on first use instead of waiting for the start: the results are the
// same either way. Any other chunk waits for the started engines, which then
// take every later chunk.
template <class E>
class ChunkEngines {
public:
    using MakeCpu = std::function<E()>;

    ChunkEngines(std::unique_ptr<EngineStart<E>> start, bool cpu_while_starting, MakeCpu make_cpu)
        : start_(std::move(start)), cpu_while_starting_(cpu_while_starting), make_cpu_(std::move(make_cpu)) {}

    // The engines for the next chunk; quick_on_cpu: the CPU engines would
    // finish it in about a tenth of a second.
    E& for_chunk(bool quick_on_cpu) {
        on_cpu_ = false;
        if (started_) return started_->engines;
        if (cpu_while_starting_ && quick_on_cpu && !start_->ready()) {
            if (!cpu_) cpu_.emplace(make_cpu_());
            ++cpu_chunks_;
            on_cpu_ = true;
            return *cpu_;
        }
        const auto t0 = std::chrono::steady_clock::now();
        started_.emplace(start_->take());
        wait_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return started_->engines;
    }

    // Whether the last for_chunk() gave the CPU engines.
    bool on_cpu() const noexcept { return on_cpu_; }
    // Whether the last for_chunk() gave started CUDA engines.
    bool on_cuda() const noexcept { return !on_cpu_ && started_ && started_->device.cuda; }
    // The GPUs of the started engines (none before a chunk waited for them).
    size_t gpu_count() const noexcept { return started_ ? started_->device.gpus.size() : 0; }
    // The started engines, once a chunk waited for them; else nullptr.
    E* started() noexcept { return started_ ? &started_->engines : nullptr; }
    // The CPU engines, if a chunk went to them; else nullptr.
    E* cpu() noexcept { return cpu_ ? &*cpu_ : nullptr; }
    uint64_t cpu_chunks() const noexcept { return cpu_chunks_; }
    // Time the run waited for the start.
    double wait_seconds() const noexcept { return wait_seconds_; }
    // Where the chunks ran, for the run's summary: the started engines'
    // device once a chunk took them, else "cpu", the engines that did it all.
    // Never what the start is doing meanwhile: whether it has resolved is a
    // matter of timing (and with no GPU it resolves to the CPU anyway).
    std::string device_description() const {
        return started_ ? started_->device.describe() : DeviceChoice{}.describe();
    }

private:
    std::unique_ptr<EngineStart<E>> start_;  // first in, last out: its thread outlives the engines' use
    bool cpu_while_starting_;
    MakeCpu make_cpu_;
    std::optional<typename EngineStart<E>::Started> started_;
    std::optional<E> cpu_;
    uint64_t cpu_chunks_ = 0;
    double wait_seconds_ = 0;
    bool on_cpu_ = false;
};

}  // namespace warpdp
