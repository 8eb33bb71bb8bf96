// How the CUDA engines lay a chunk of targets out (kernels/common/resident_targets.hpp,
// plain C++, so tested here without a GPU): longest first with ties in input
// order, split over devices by residues, packed back to back with padding.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "kernels/common/resident_targets.hpp"
#include "test_support.hpp"

using namespace warpdp;
namespace t = warpdp::test;

namespace {

SeqBatch batch_of_lengths(const std::vector<size_t>& lengths) {
    SeqBatch b;
    for (size_t L : lengths) {
        b.residues.resize(b.residues.size() + L, static_cast<uint8_t>(L % 20));
        b.close_record("t", {});
    }
    return b;
}

}  // namespace

TEST_CASE("longest_first: a stable sort by length, longest first, for short and very long targets") {
    for (int trial = 0; trial < 20; ++trial) {
        std::vector<size_t> lengths(static_cast<size_t>(t::uniform(0, 3000)));
        for (auto& L : lengths) {
            const int kind = t::uniform(0, 9);
            L = static_cast<size_t>(kind == 0 ? t::uniform(65530, 70000) : kind == 1 ? t::uniform(0, 3) : t::uniform(1, 2000));
        }
        const SeqBatch b = batch_of_lengths(lengths);
        std::vector<uint32_t> want(lengths.size());
        std::iota(want.begin(), want.end(), 0u);
        std::stable_sort(want.begin(), want.end(), [&](uint32_t x, uint32_t y) { return lengths[x] > lengths[y]; });
        CHECK(cuda::longest_first(b) == want);
    }
}

TEST_CASE("split_longest_first: one device holds every target, longest first") {
    const std::vector<size_t> lengths{5, 300, 70000, 0, 42, 300, 65536, 7, 1};
    const SeqBatch b = batch_of_lengths(lengths);
    const auto parts = cuda::split_longest_first(b, 1);
    REQUIRE(parts.size() == 1);
    CHECK(parts[0] == std::vector<uint32_t>{2, 6, 1, 5, 4, 7, 0, 8, 3});
}

TEST_CASE("split_longest_first: every target once, devices within one target of each other") {
    const std::vector<size_t> lengths{5, 300, 70000, 0, 42, 300, 65536, 7, 1};
    const SeqBatch b = batch_of_lengths(lengths);
    const auto parts = cuda::split_longest_first(b, 3);
    std::vector<uint32_t> all;
    std::vector<uint64_t> load;
    for (const auto& p : parts) {
        all.insert(all.end(), p.begin(), p.end());
        uint64_t r = 0;
        for (size_t j = 0; j < p.size(); ++j) {
            r += lengths[p[j]];
            if (j > 0) CHECK(lengths[p[j - 1]] >= lengths[p[j]]);
        }
        load.push_back(r);
    }
    std::sort(all.begin(), all.end());
    std::vector<uint32_t> every(lengths.size());
    std::iota(every.begin(), every.end(), 0u);
    CHECK(all == every);
    CHECK(*std::max_element(load.begin(), load.end()) - *std::min_element(load.begin(), load.end()) <= 70000);
}
