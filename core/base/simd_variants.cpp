// The CPU question behind every family's variant table (simd_variants.hpp).
#include "core/base/simd_variants.hpp"

namespace warpdp {

const char* cpu_isa_name(CpuIsa isa) noexcept {
    switch (isa) {
        case CpuIsa::base: return "base";
        case CpuIsa::sse2: return "sse2";
        case CpuIsa::ssse3: return "ssse3";
        case CpuIsa::avx2: return "avx2";
    }
    return "?";
}

namespace {

struct CpuFeatures {
    bool sse2 = false, ssse3 = false, avx2 = false;
};

CpuFeatures ask_cpu() noexcept {
    CpuFeatures f;
#if defined(__x86_64__)
    __builtin_cpu_init();  // (harmless after libgcc's constructor; needed before it)
    f.sse2 = true;         // the x86-64 baseline
    // libgcc also checks that the OS saves the YMM registers (XGETBV).
    f.ssse3 = __builtin_cpu_supports("ssse3");
    f.avx2 = __builtin_cpu_supports("avx2");
#endif
    return f;
}

}  // namespace

bool cpu_supports(CpuIsa isa) noexcept {
    static const CpuFeatures f = ask_cpu();
    switch (isa) {
        case CpuIsa::base: return true;
        case CpuIsa::sse2: return f.sse2;
        case CpuIsa::ssse3: return f.ssse3;
        case CpuIsa::avx2: return f.avx2;
    }
    return false;
}

}  // namespace warpdp
