// CUDA error checking and RAII owners for device resources, shared by the
// CUDA sources in kernels/. Every runtime call goes through WARPDP_CUDA_CHECK
// so a failure carries the call text and its source location; failures that
// mean "the machine cannot do this" (no device, out of memory) become
// ResourceError, anything else is a bug and becomes InternalError.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/base/errors.hpp"
#include "core/base/huge_pages.hpp"

namespace warpdp::cuda {

inline bool is_resource_error(cudaError_t e) noexcept {
    switch (e) {
        case cudaErrorMemoryAllocation:
        case cudaErrorNoDevice:
        case cudaErrorInsufficientDriver:
        case cudaErrorInvalidDevice:
        case cudaErrorDevicesUnavailable:
        case cudaErrorLaunchOutOfResources:
        case cudaErrorSystemNotReady:
        case cudaErrorSystemDriverMismatch:
        case cudaErrorCompatNotSupportedOnDevice:
            return true;
        default:
            return false;
    }
}

[[noreturn]] inline void throw_cuda_error(cudaError_t e, const char* call, const char* file, int line) {
    std::string msg = std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                      cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
    if (is_resource_error(e)) throw ResourceError(msg);
    throw InternalError(msg);
}

}  // namespace warpdp::cuda

#define WARPDP_CUDA_CHECK(call)                                                        \
    do {                                                                               \
        const cudaError_t warpdp_err_ = (call);                                        \
        if (warpdp_err_ != cudaSuccess)                                                \
            ::warpdp::cuda::throw_cuda_error(warpdp_err_, #call, __FILE__, __LINE__);  \
    } while (0)

// After a <<<>>> launch: catches bad configurations at once (asynchronous
// faults surface at the next synchronizing call, which is checked too).
#define WARPDP_CUDA_CHECK_LAUNCH(what) WARPDP_CUDA_CHECK((static_cast<void>(what), cudaGetLastError()))

namespace warpdp::cuda {

// Makes `device` current for a scope and restores the previous one.
class DeviceGuard {
public:
    explicit DeviceGuard(int device) {
        WARPDP_CUDA_CHECK(cudaGetDevice(&previous_));
        if (device != previous_) WARPDP_CUDA_CHECK(cudaSetDevice(device));
    }
    ~DeviceGuard() { static_cast<void>(cudaSetDevice(previous_)); }
    DeviceGuard(const DeviceGuard&) = delete;
    DeviceGuard& operator=(const DeviceGuard&) = delete;

private:
    int previous_ = 0;
};

// n elements of T in device memory of the device current at construction.
template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(size_t n) { reset(n); }
    ~DeviceBuffer() { release(); }
    DeviceBuffer(DeviceBuffer&& o) noexcept { swap(o); }
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept { swap(o); return *this; }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    void reset(size_t n) {
        release();
        if (n == 0) return;
        void* p = nullptr;
        WARPDP_CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
        WARPDP_CUDA_CHECK(cudaGetDevice(&device_));
        ptr_ = static_cast<T*>(p);
        size_ = n;
    }
    // Grows (never shrinks) so per-model scratch is allocated once and reused.
    void reserve(size_t n) { if (n > size_) reset(n); }
    T* get() const noexcept { return ptr_; }
    size_t size() const noexcept { return size_; }

private:
    void release() noexcept {
        if (!ptr_) return;
        int cur = 0;
        if (cudaGetDevice(&cur) == cudaSuccess && cur != device_) {
            static_cast<void>(cudaSetDevice(device_));
            static_cast<void>(cudaFree(ptr_));
            static_cast<void>(cudaSetDevice(cur));
        } else {
            static_cast<void>(cudaFree(ptr_));
        }
        ptr_ = nullptr;
        size_ = 0;
    }
    void swap(DeviceBuffer& o) noexcept {
        std::swap(ptr_, o.ptr_);
        std::swap(size_, o.size_);
        std::swap(device_, o.device_);
    }
    T* ptr_ = nullptr;
    size_t size_ = 0;
    int device_ = 0;
};

// Page-locked host memory, so result copies run asynchronously.
template <class T>
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    ~PinnedBuffer() { if (ptr_) static_cast<void>(cudaFreeHost(ptr_)); }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    void reserve(size_t n) {
        if (n <= size_) return;
        if (ptr_) static_cast<void>(cudaFreeHost(ptr_));
        ptr_ = nullptr;
        size_ = 0;
        void* p = nullptr;
        WARPDP_CUDA_CHECK(cudaMallocHost(&p, n * sizeof(T)));
        ptr_ = static_cast<T*>(p);
        size_ = n;
    }
    T* get() const noexcept { return ptr_; }

private:
    T* ptr_ = nullptr;
    size_t size_ = 0;
};

// Host memory a chunk is packed into on its way to the card, grown only and
// never zero-filled (the packing writes every byte). Once written it is
// page-locked in place (cudaHostRegister of pages already resident is cheap),
// so each later copy runs at the link's rate instead of through the driver's
// bounce buffers, several times slower; cudaMallocHost would also lock it,
// but allocating and clearing that much costs far more than locking
// (docs/benchmarks.md). Where locking fails (some containers), the
// copies simply stay pageable.
class StagingBuffer {
public:
    StagingBuffer() = default;
    ~StagingBuffer() { release(); }
    StagingBuffer(const StagingBuffer&) = delete;
    StagingBuffer& operator=(const StagingBuffer&) = delete;

    void reserve(size_t n) {
        if (n <= size_) return;
        release();
        data_.reset(new uint8_t[n]);
        size_ = n;
        advise_huge_pages(data_.get(), n);
    }
    uint8_t* get() const noexcept { return data_.get(); }
    // Called once the buffer has been written (its pages are resident, so
    // locking them does not fault them in one by one).
    void lock() {
        if (locked_ || tried_ || !data_) return;
        tried_ = true;
        locked_ = cudaHostRegister(data_.get(), size_, cudaHostRegisterPortable) == cudaSuccess;
        if (!locked_) static_cast<void>(cudaGetLastError());  // not sticky: clear it
    }

private:
    void release() noexcept {
        if (locked_) static_cast<void>(cudaHostUnregister(data_.get()));
        locked_ = tried_ = false;
        data_.reset();
        size_ = 0;
    }
    std::unique_ptr<uint8_t[]> data_;
    size_t size_ = 0;
    bool locked_ = false, tried_ = false;
};

class Stream {
public:
    Stream() { WARPDP_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
    ~Stream() { if (s_) static_cast<void>(cudaStreamDestroy(s_)); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const noexcept { return s_; }

private:
    cudaStream_t s_ = nullptr;
};

class Event {
public:
    Event() { WARPDP_CUDA_CHECK(cudaEventCreate(&e_)); }
    // cudaEventBlockingSync: a thread waiting on it sleeps instead of spinning.
    explicit Event(unsigned flags) { WARPDP_CUDA_CHECK(cudaEventCreateWithFlags(&e_, flags)); }
    ~Event() { if (e_) static_cast<void>(cudaEventDestroy(e_)); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const noexcept { return e_; }

private:
    cudaEvent_t e_ = nullptr;
};

// The properties of each listed device, after checking that it exists: the
// common first step of every CUDA engine's constructor.
inline std::vector<cudaDeviceProp> open_devices(const std::vector<int>& devices, const char* engine) {
    if (devices.empty()) throw UsageError(std::string("the CUDA ") + engine + " engine needs at least one device");
    int count = 0;
    WARPDP_CUDA_CHECK(cudaGetDeviceCount(&count));
    std::vector<cudaDeviceProp> props;
    for (int d : devices) {
        if (d < 0 || d >= count)
            throw ResourceError("GPU " + std::to_string(d) + " does not exist (" + std::to_string(count) + " visible)");
        cudaDeviceProp prop{};
        WARPDP_CUDA_CHECK(cudaGetDeviceProperties(&prop, d));
        props.push_back(prop);
        // A host thread waiting for a kernel sleeps instead of spinning (the
        // default with fewer contexts than cores): the CPU engines and the
        // final hmmsearch runs of gpu-hmmsearch need those cores.
        DeviceGuard on(d);
        WARPDP_CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    }
    return props;
}

}  // namespace warpdp::cuda
