// The budget every CUDA engine plans within (kernels/common/device_memory.hpp):
// plain arithmetic, so tested here without a GPU.
#include <doctest/doctest.h>

#include <cstdint>

#include "kernels/common/device_memory.hpp"

using warpdp::cuda::DeviceMemory;
using warpdp::cuda::kDeviceReserve;

namespace {
constexpr uint64_t kMiB = uint64_t{1} << 20;
}

TEST_CASE("an engine may take the free memory less the reserve") {
    const DeviceMemory mem{kDeviceReserve + 300 * kMiB, 80 * 1024 * kMiB};
    CHECK(mem.budget() == 300 * kMiB);
}

TEST_CASE("memory the engine holds and is about to replace counts as free") {
    const DeviceMemory mem{kDeviceReserve + 300 * kMiB, 80 * 1024 * kMiB};
    CHECK(mem.budget(200 * kMiB) == 500 * kMiB);
    CHECK(mem.budget(200 * kMiB) == DeviceMemory{mem.free + 200 * kMiB, mem.total}.budget());
}

TEST_CASE("the budget is never negative") {
    CHECK(DeviceMemory{kDeviceReserve - 1, kDeviceReserve}.budget() == 0);
    CHECK(DeviceMemory{kDeviceReserve, kDeviceReserve}.budget() == 0);
    CHECK(DeviceMemory{0, kDeviceReserve}.budget() == 0);
    CHECK(DeviceMemory{kDeviceReserve - kMiB, kDeviceReserve}.budget(kMiB) == 0);
    CHECK(DeviceMemory{kDeviceReserve - kMiB, kDeviceReserve}.budget(kMiB + 1) == 1);
}
