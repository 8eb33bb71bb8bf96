// The thread loops of core/base/parallel.hpp: results by index, never by schedule.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "core/base/parallel.hpp"

using namespace warpdp;

TEST_CASE("parallel_filter keeps what keep(i) gives, in index order, for any threads and block size") {
    const size_t n = 10007;
    std::vector<size_t> want;  // multiples of 7 and the last index, squared
    for (size_t i = 0; i < n; ++i)
        if (i % 7 == 0 || i == n - 1) want.push_back(i * i);
    const auto keep = [&](size_t i) { return i % 7 == 0 || i == n - 1 ? std::optional<size_t>(i * i) : std::nullopt; };
    for (unsigned threads : {1u, 2u, 7u})
        for (size_t block : {size_t{1}, size_t{3}, size_t{4096}, size_t{20000}}) {
            CAPTURE(threads);
            CAPTURE(block);
            CHECK(parallel_filter<size_t>(n, threads, block, keep) == want);
        }
    CHECK(parallel_filter<size_t>(0, 4, 16, keep).empty());
    CHECK(parallel_filter<size_t>(n, 4, 16, [](size_t) { return std::optional<size_t>(); }).empty());
}

TEST_CASE("parallel_filter_blocks hands out every index once, in blocks of the given size, and joins them in order") {
    const size_t n = 10007;
    for (unsigned threads : {1u, 3u})
        for (size_t block : {size_t{1}, size_t{10}, size_t{4096}, size_t{20000}}) {
            CAPTURE(threads);
            CAPTURE(block);
            // each block keeps its bounds; the last block is the only short one
            const auto got = parallel_filter_blocks<std::pair<size_t, size_t>>(
                n, threads, block,
                [&](size_t begin, size_t end, std::vector<std::pair<size_t, size_t>>& out) { out.emplace_back(begin, end); });
            REQUIRE(got.size() == (n + block - 1) / block);
            for (size_t b = 0; b < got.size(); ++b) {
                CHECK(got[b].first == b * block);
                CHECK(got[b].second == std::min(n, (b + 1) * block));
            }
        }
}
