// The DPX edge probe that bench_vit_gpu prints (bench/vit_dpx_probe.hpp):
// Hopper's 16-bit DPX intrinsics and the SIMD saturating halfword add on
// int16 edge values, what the hardware returned next to HMMER's saturating
// answer. It documents why vit_kernel works in int32 (docs/vit-cuda.md);
// no tool links it.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/vit_dpx_probe.hpp"
#include "kernels/common/cuda_check.cuh"

namespace warpdp {
namespace {

// One input (a, b, c) and what each intrinsic returned for it.
struct DpxProbeRow {
    int a, b, c;
    int viaddmax, vimax3, vimax_relu, viaddmax_relu, vaddss2;
};

__device__ int lo_of(unsigned w) { return static_cast<short>(w & 0xFFFFu); }
__device__ unsigned both(int v) { return (static_cast<unsigned>(v) & 0xFFFFu) * 0x10001u; }

__global__ void dpx_probe_kernel(DpxProbeRow* rows, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    DpxProbeRow& r = rows[i];
    const unsigned a = both(r.a), b = both(r.b), c = both(r.c);
    r.viaddmax = lo_of(__viaddmax_s16x2(a, b, c));
    r.vimax3 = lo_of(__vimax3_s16x2(a, b, c));
    r.vimax_relu = lo_of(__vimax_s16x2_relu(a, b));
    r.viaddmax_relu = lo_of(__viaddmax_s16x2_relu(a, b, c));
    r.vaddss2 = lo_of(__vaddss2(a, b));
}

}  // namespace

std::vector<std::string> vit_cuda_dpx_probe(int device) {
    using namespace warpdp::cuda;
    DeviceGuard guard(device);
    std::vector<DpxProbeRow> rows = {
        {-32768, -1, -32768, 0, 0, 0, 0, 0},     {-32768, -32768, -32768, 0, 0, 0, 0, 0},
        {-32768, -500, -32768, 0, 0, 0, 0, 0},   {12000, -32768, -32768, 0, 0, 0, 0, 0},
        {32767, 1, -32768, 0, 0, 0, 0, 0},       {32000, 1000, -32768, 0, 0, 0, 0, 0},
        {-30000, -5000, -32768, 0, 0, 0, 0, 0},  {100, 200, -32768, 0, 0, 0, 0, 0},
        {-20000, -20000, -1, 0, 0, 0, 0, 0},
    };
    DeviceBuffer<DpxProbeRow> d(rows.size());
    WARPDP_CUDA_CHECK(cudaMemcpy(d.get(), rows.data(), rows.size() * sizeof(DpxProbeRow), cudaMemcpyHostToDevice));
    dpx_probe_kernel<<<1, 32>>>(d.get(), static_cast<int>(rows.size()));
    WARPDP_CUDA_CHECK(cudaGetLastError());
    WARPDP_CUDA_CHECK(cudaMemcpy(rows.data(), d.get(), rows.size() * sizeof(DpxProbeRow), cudaMemcpyDeviceToHost));
    std::vector<std::string> out;
    out.push_back("        a       b       c | sat(a+b) max(sat,c) | viaddmax vimax3 vimax_relu(a,b) viaddmax_relu vaddss2");
    for (const auto& r : rows) {
        const int sat = std::clamp(r.a + r.b, -32768, 32767);
        char buf[256];
        std::snprintf(buf, sizeof buf, "%9d %7d %7d | %8d %11d | %8d %6d %15d %13d %7d  %s", r.a, r.b, r.c, sat,
                      std::max(sat, r.c), r.viaddmax, r.vimax3, r.vimax_relu, r.viaddmax_relu, r.vaddss2,
                      r.viaddmax == std::max(sat, r.c) ? "viaddmax=sat" : "viaddmax!=sat");
        out.emplace_back(buf);
    }
    return out;
}

}  // namespace warpdp
