// The thread loops of core/parallel.hpp: results by index, never by schedule.
#include <doctest/doctest.h>

#include <optional>
#include <vector>

#include "core/parallel.hpp"

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
