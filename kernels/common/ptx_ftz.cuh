// Single-precision operations as hmmsearch's SSE code performs them under
// its flush-to-zero mode (docs/hmmer-filters.md §12): round to nearest,
// never fused into an FMA, denormal inputs and results taken as 0. Explicit
// PTX, so no compiler option or contraction can change them.
#pragma once

namespace warpdp::ptx_ftz {

__device__ __forceinline__ float mul(float a, float b) {
    float r;
    asm("mul.rn.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
__device__ __forceinline__ float add(float a, float b) {
    float r;
    asm("add.rn.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
__device__ __forceinline__ float div(float a, float b) {
    float r;
    asm("div.rn.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}

}  // namespace warpdp::ptx_ftz
