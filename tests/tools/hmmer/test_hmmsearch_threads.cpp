// gpu-hmmsearch's threads within hmmsearch's --cpu (docs/hmmer-filters.md
// §9.4): the final runs' shares never add up to more than --cpu, and the
// filters take no more than it either.
#include <doctest/doctest.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <string>

#include "core/base/errors.hpp"
#include "tools/hmmer/hmmsearch_threads.hpp"

using namespace warpdp;

TEST_CASE("under --cpu N the runs going never hold more than N threads, each at least 1") {
    std::mt19937_64 g(20261207);
    for (uint64_t cpu = 1; cpu <= 9; ++cpu)
        for (uint64_t models = 1; models <= 12; ++models) {
            HmmsearchThreads t(cpu, 64, models, std::nullopt, "0");
            CHECK(t.capped());
            CHECK(t.jobs() == std::min(cpu, models));
            // Runs start while slots are free and end in a random order,
            // as the final runs do.
            std::deque<uint64_t> going;
            uint64_t held = 0, started = 0, most = 0;
            while (started < models || !going.empty()) {
                if (started < models && going.size() < t.jobs()) {
                    const uint64_t share = t.take();
                    CHECK(share >= 1);
                    CHECK(share <= t.widest());
                    going.push_back(share);
                    held += share;
                    ++started;
                } else {
                    const size_t k = std::uniform_int_distribution<size_t>(0, going.size() - 1)(g);
                    held -= going[k];
                    t.give(going[k]);
                    going.erase(going.begin() + static_cast<std::ptrdiff_t>(k));
                }
                CHECK(held <= cpu);
                most = std::max(most, held);
            }
            // ... and the first runs use all of them.
            CHECK(most == cpu);
        }
}

TEST_CASE("--cpu 0 is hmmsearch's serial mode: one run at a time, each --cpu 0") {
    HmmsearchThreads t(uint64_t{0}, 16, 3, std::nullopt, "0");
    CHECK(t.jobs() == 1);
    CHECK(t.filters() == "1");
    const uint64_t share = t.take();
    CHECK(t.cpu_option(share) == "0");
    CHECK_THROWS_AS(t.take(), InternalError);  // (one slot)
    t.give(share);
}

TEST_CASE("the filters take WARPDP_THREADS, all cores for 0, but never more than --cpu") {
    CHECK(HmmsearchThreads(uint64_t{4}, 16, 2, std::nullopt, "0").filters() == "4");
    CHECK(HmmsearchThreads(uint64_t{4}, 16, 2, std::nullopt, "2").filters() == "2");
    CHECK(HmmsearchThreads(uint64_t{4}, 16, 2, std::nullopt, "9").filters() == "4");
    // Without --cpu they are the environment's to choose.
    CHECK(HmmsearchThreads(std::nullopt, 16, 2, std::nullopt, "9").filters() == "9");
    CHECK(HmmsearchThreads(std::nullopt, 16, 2, std::nullopt, "0").filters() == "0");
}

TEST_CASE("WARPDP_FINAL_JOBS sets the runs at once, within --cpu") {
    CHECK(HmmsearchThreads(uint64_t{3}, 16, 8, uint64_t{2}, "0").jobs() == 2);
    CHECK(HmmsearchThreads(uint64_t{3}, 16, 8, uint64_t{6}, "0").jobs() == 3);
    CHECK(HmmsearchThreads(std::nullopt, 16, 8, uint64_t{6}, "0").jobs() == 6);
}

TEST_CASE("without --cpu every run takes every core, one run per model up to the cores") {
    HmmsearchThreads t(std::nullopt, 4, 6, std::nullopt, "0");
    CHECK_FALSE(t.capped());
    CHECK(t.jobs() == 4);
    for (int i = 0; i < 4; ++i) CHECK(t.cpu_option(t.take()) == "4");
    CHECK(t.widest() == 4);
}
