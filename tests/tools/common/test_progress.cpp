// The progress line: done, of how much, the rate, the time left.
#include <doctest/doctest.h>

#include "tools/common/progress.hpp"

using namespace warpdp;

TEST_CASE("a known total gives the share done and the time left at the rate so far") {
    CHECK(Progress::line(250, 1000, 10, "pairs", "") == "250/1000 pairs (25.0%), 25 pairs/s, 30s left, 10s so far");
    CHECK(Progress::line(3'000'000, 12'000'000, 60, "pairs", "") ==
          "3.0M/12.0M pairs (25.0%), 50.0k pairs/s, 3m00s left, 1m00s so far");
}

TEST_CASE("an unknown total gives no share and no time left; the detail follows the count") {
    CHECK(Progress::line(5000, 0, 2, "sequences", "1.2M bases") ==
          "5000 sequences, 1.2M bases, 2500 sequences/s, 2s so far");
    CHECK(Progress::line(0, 0, 0, "sequences", "") == "0 sequences, 0s so far");
}

TEST_CASE("long runs count hours") {
    CHECK(Progress::line(1, 4, 3600, "chunks", "") == "1/4 chunks (25.0%), 0 chunks/s, 3h00m left, 1h00m so far");
}
