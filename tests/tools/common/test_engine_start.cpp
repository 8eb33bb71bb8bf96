// How a tool's engines start (tools/common/engine_start.hpp): off the calling thread,
// for the device choice it resolves there, errors handed to the taker, and
// outside a tool a start nobody took is waited for. A pretend device choice
// stands in for GPUs.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/base/errors.hpp"
#include "tools/common/device_choice.hpp"
#include "tools/common/engine_start.hpp"

using namespace warpdp;

namespace {

// The "engines": the GPUs they were made for.
using Gpus = std::vector<int>;

DeviceChoice gpus(Gpus g) { return DeviceChoice{!g.empty(), std::move(g)}; }

}  // namespace

TEST_CASE("the engines are made once, on another thread, for the device choice resolved there") {
    for (const Gpus& g : {Gpus{}, Gpus{3}, Gpus{2, 0, 1}}) {
        const auto caller = std::this_thread::get_id();
        std::mutex m;
        std::vector<Gpus> made;
        bool elsewhere = true;
        EngineStart<Gpus> start(
            [&] {
                std::lock_guard<std::mutex> lock(m);
                elsewhere = elsewhere && std::this_thread::get_id() != caller;
                return gpus(g);
            },
            [&](const DeviceChoice& d) {
                std::lock_guard<std::mutex> lock(m);
                elsewhere = elsewhere && std::this_thread::get_id() != caller;
                made.push_back(d.gpus);
                return d.gpus;
            });
        const auto started = start.take();
        CHECK(started.device.cuda == !g.empty());
        CHECK(started.engines == g);
        std::lock_guard<std::mutex> lock(m);
        CHECK(made == std::vector<Gpus>{g});
        CHECK(elsewhere);
    }
}

TEST_CASE("ready() says whether take() would wait") {
    std::mutex gate;
    std::unique_lock<std::mutex> hold(gate);  // the start waits on this
    EngineStart<Gpus> start([] { return gpus({0}); }, [&](const DeviceChoice& d) {
        std::lock_guard<std::mutex> wait(gate);
        return d.gpus;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK_FALSE(start.ready());
    hold.unlock();
    CHECK(start.take().engines == Gpus{0});
}

TEST_CASE("errors reach the taker: of the device choice, of the engines") {
    SUBCASE("the device choice") {
        EngineStart<Gpus> start([]() -> DeviceChoice { throw UsageError("unknown --device 'tpu'"); },
                                [](const DeviceChoice& d) { return d.gpus; });
        CHECK_THROWS_WITH_AS(start.take(), "unknown --device 'tpu'", UsageError);
        CHECK(start.ready());
    }
    SUBCASE("the engines") {
        EngineStart<Gpus> start([] { return gpus({0, 1}); },
                                [](const DeviceChoice&) -> Gpus { throw ResourceError("out of GPU memory"); });
        CHECK_THROWS_WITH_AS(start.take(), "out of GPU memory", ResourceError);
    }
    SUBCASE("a --device value that resolve_device refuses") {
        EngineStart<Gpus> start("tpu", [](const DeviceChoice& d) { return d.gpus; });
        CHECK_THROWS_AS(start.take(), UsageError);
    }
}

TEST_CASE("outside a tool, a start nobody took is waited for: its engines are made and freed before the owner goes") {
    REQUIRE_FALSE(abandoned_starts_allowed());
    std::atomic<bool> made{false};
    {
        EngineStart<Gpus> start([] { return gpus({0, 1}); }, [&](const DeviceChoice& d) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            made = true;
            return d.gpus;
        });
    }
    CHECK(made);
    CHECK_FALSE(starts_still_running());
}

TEST_CASE("while the engines start, quick chunks go to CPU engines if allowed; then every chunk to the started ones") {
    for (const bool cpu_while_starting : {true, false}) {
        CAPTURE(cpu_while_starting);
        std::mutex gate;
        std::unique_lock<std::mutex> hold(gate);  // the start waits on this
        int cpu_made = 0;
        ChunkEngines<Gpus> engines(
            std::make_unique<EngineStart<Gpus>>([] { return gpus({1}); },
                                                [&](const DeviceChoice& d) {
                                                    std::lock_guard<std::mutex> wait(gate);
                                                    return d.gpus;
                                                }),
            cpu_while_starting, [&] {
                ++cpu_made;
                return Gpus{};
            });
        CHECK(engines.started() == nullptr);
        CHECK(engines.device_description() == "cpu");  // what ran so far, however the start goes on
        if (cpu_while_starting) {
            for (int chunk = 0; chunk < 3; ++chunk) {
                CHECK(engines.for_chunk(true) == Gpus{});
                CHECK(engines.on_cpu());
            }
            CHECK(cpu_made == 1);  // made once, on first use
            CHECK(engines.cpu_chunks() == 3);
        }
        hold.unlock();
        // A chunk the CPU would not finish quickly waits for the start, and
        // from then on quick chunks go to the started engines too.
        CHECK(engines.for_chunk(false) == Gpus{1});
        CHECK_FALSE(engines.on_cpu());
        CHECK(engines.for_chunk(true) == Gpus{1});
        CHECK_FALSE(engines.on_cpu());
        REQUIRE(engines.started() != nullptr);
        CHECK(*engines.started() == Gpus{1});
        CHECK(engines.device_description() == "cuda:1");
        CHECK(engines.cpu_chunks() == (cpu_while_starting ? 3u : 0u));
        CHECK((engines.cpu() != nullptr) == cpu_while_starting);
    }
}
