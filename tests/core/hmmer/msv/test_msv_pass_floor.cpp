// MsvPassFloor: a raw MSV result below the floor of its length must fail the
// MSV stage, and the floor must sit exactly kMargin below the first passing
// raw (so it spares the arithmetic of nearly every failing target). Checked
// over every raw value, on real and random models, swept lengths and F1.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <thread>
#include <vector>

#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/msv/msv_pass_floor.hpp"
#include "hmmer_test_support.hpp"
#include "random_hmm.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

std::vector<uint64_t> swept_lengths() {
    std::vector<uint64_t> Ls = {1, 2, 3, 5, 10, 50, 100, 350, 1000, 65535, 65536, 70000, 2000000};
    for (int i = 0; i < 6; ++i) Ls.push_back(static_cast<uint64_t>(uniform(1, 40000)));
    return Ls;
}

// Every raw value at length L: the floor never hides a pass, and it lies
// kMargin below the first pass.
void check_every_raw(const MsvModel& m, double F1, uint64_t L) {
    const MsvPassFloor floor(m, F1);
    uint32_t first_pass = kMsvOverflow;
    bool monotone = true, seen_pass = false;
    for (uint32_t raw = 0; raw <= kMsvOverflow; ++raw) {
        const bool pass = msv_stage_verdict(m, static_cast<uint16_t>(raw), L, F1).pass_msv;
        if (pass && !seen_pass) first_pass = raw;
        if (!pass && seen_pass) monotone = false;
        seen_pass = seen_pass || pass;
        if (floor.fails(static_cast<uint16_t>(raw), L) && pass) {
            FAIL_CHECK("raw " << raw << " passes at L " << L << ", F1 " << F1 << " but is below the floor "
                              << floor.floor(L));
            return;
        }
    }
    CHECK_MESSAGE(monotone, "pass/fail not monotone in raw at L " << L);
    const uint32_t want = first_pass > MsvPassFloor::kMargin ? first_pass - MsvPassFloor::kMargin : 0;
    CHECK_MESSAGE(floor.floor(L) == want, "L " << L << ", F1 " << F1);
}

}  // namespace

TEST_CASE("the floor hides no pass and sits kMargin below the first pass: real models") {
    for (const char* name : {"fn3.hmm", "Pkinase.hmm", "globins4.hmm"}) {
        const MsvModel m(read_all_hmms(kHmmerTutorial + name).at(0));
        for (double F1 : {0.02, 1e-5, 0.5})
            for (uint64_t L : swept_lengths()) check_every_raw(m, F1, L);
    }
}

TEST_CASE("the floor hides no pass: random models and thresholds") {
    for (int rep = 0; rep < 4; ++rep) {
        Hmm h = random_hmm(uniform(1, 1500), rng());
        h.evparam[kMsvMu] = -7.0f - static_cast<float>(uniform(0, 6000)) / 1000.0f;
        h.evparam[kMsvLambda] = 0.6f + static_cast<float>(uniform(0, 200)) / 1000.0f;
        const MsvModel m(std::move(h));
        const double F1 = std::pow(10.0, -static_cast<double>(uniform(0, 8000)) / 1000.0);
        for (uint64_t L : swept_lengths()) check_every_raw(m, F1, L);
    }
}

TEST_CASE("no floor where P does not fall with the score, or F1 lets everything through") {
    Hmm h = random_hmm(50, rng());
    h.evparam[kMsvMu] = -9.0f;
    for (float lambda : {0.0f, -0.7f, std::numeric_limits<float>::quiet_NaN()}) {
        h.evparam[kMsvLambda] = lambda;
        const MsvModel m(h);
        CHECK(MsvPassFloor(m, 0.02).floor(300) == 0);
    }
    h.evparam[kMsvLambda] = 0.7f;
    const MsvModel m(h);
    CHECK(MsvPassFloor(m, 1.0).floor(300) == 0);
    CHECK(MsvPassFloor(m, 0.02).floor(300) > 0);
}

TEST_CASE("threads asking for the same lengths get the same floors") {
    const MsvModel m(read_all_hmms(kHmmerTutorial + "Pkinase.hmm").at(0));
    const MsvPassFloor shared(m, 0.02), alone(m, 0.02);
    std::vector<std::thread> pool;
    std::vector<int> bad(4, 0);
    for (int i = 0; i < 4; ++i)
        pool.emplace_back([&, i] {
            for (uint64_t L = 1; L < 5000; ++L) bad[static_cast<size_t>(i)] += shared.floor(L) != alone.floor(L);
        });
    for (auto& t : pool) t.join();
    for (int b : bad) CHECK(b == 0);
}
