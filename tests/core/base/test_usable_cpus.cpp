// The default thread count: the CPUs this process may use.
#include <doctest/doctest.h>

#include <thread>

#include <sched.h>

#include "core/base/usable_cpus.hpp"

using namespace warpdp;

TEST_CASE("a cgroup v2 quota in whole CPUs, rounded up; none when unlimited or unreadable") {
    CHECK(cpus_of_cgroup_quota("max 100000\n") == 0);
    CHECK(cpus_of_cgroup_quota("100000 100000\n") == 1);
    CHECK(cpus_of_cgroup_quota("150000 100000\n") == 2);
    CHECK(cpus_of_cgroup_quota("50000 100000") == 1);
    CHECK(cpus_of_cgroup_quota("800000 100000") == 8);
    CHECK(cpus_of_cgroup_quota("") == 0);
    CHECK(cpus_of_cgroup_quota("garbage") == 0);
    CHECK(cpus_of_cgroup_quota("12x 100000") == 0);
    CHECK(cpus_of_cgroup_quota("100000 0") == 0);
}

TEST_CASE("the affinity mask bounds the count (taskset -c 0 gives one)") {
    const unsigned all = usable_cpus();
    CHECK(all >= 1);
    CHECK(all <= std::max(1u, std::thread::hardware_concurrency()));
    cpu_set_t old;
    REQUIRE(::sched_getaffinity(0, sizeof old, &old) == 0);
    int first = -1;
    for (int c = 0; c < CPU_SETSIZE && first < 0; ++c)
        if (CPU_ISSET(c, &old)) first = c;
    REQUIRE(first >= 0);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    REQUIRE(::sched_setaffinity(0, sizeof one, &one) == 0);
    CHECK(usable_cpus() == 1);
    REQUIRE(::sched_setaffinity(0, sizeof old, &old) == 0);
    CHECK(usable_cpus() == all);
}
