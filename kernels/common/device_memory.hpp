// How much device memory a CUDA engine may take: what is free now, less one
// reserve kept for what no engine plans (the CUDA context, the kernels'
// stacks and local memory, library scratch). Plain C++, so the rule is tested
// without a GPU; device_memory() itself is in device_memory.cu.
#pragma once

#include <cstdint>

namespace warpdp::cuda {

// Left free on every device beyond an engine's own plan.
inline constexpr uint64_t kDeviceReserve = uint64_t{512} << 20;

struct DeviceMemory {
    uint64_t free = 0;   // bytes free on the device when asked
    uint64_t total = 0;  // the device's memory

    // Bytes an engine may allocate: the free memory plus `held`, what it
    // already holds and is about to release and replace, less the reserve;
    // 0 when the reserve takes it all.
    constexpr uint64_t budget(uint64_t held = 0) const noexcept {
        return free + held > kDeviceReserve ? free + held - kDeviceReserve : 0;
    }
};

// The memory of the current device now (a CUDA build's engines only).
DeviceMemory device_memory();

}  // namespace warpdp::cuda
