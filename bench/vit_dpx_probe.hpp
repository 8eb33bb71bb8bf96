// bench_vit_gpu's DPX edge probe (bench/vit_dpx_probe.cu, CUDA builds only).
// No CUDA types, so the benchmark's host C++ may include it.
#pragma once

#include <string>
#include <vector>

namespace warpdp {

// Runs the 16-bit DPX / SIMD intrinsics on `device` at the int16 edges and
// returns a printable table (one line per input), so the saturation question
// is answered by the hardware rather than by documentation.
std::vector<std::string> vit_cuda_dpx_probe(int device);

}  // namespace warpdp
