// The entries of a family's variant table (core/base/simd_variants.hpp) that
// this CPU runs, for the tests and benchmarks that try every variant by
// name, not only the one the engines choose. Each entry left out is said on
// stdout, so a run on an older CPU shows what it did not cover.
#pragma once

#include <cstdio>
#include <vector>

#include "core/base/simd_variants.hpp"

namespace warpdp::test {

template <class K>
std::vector<SimdVariant<K>> runnable_variants(SimdVariants<K> table) {
    std::vector<SimdVariant<K>> out;
    for (const auto& v : table) {
        if (cpu_supports(v.isa)) out.push_back(v);
        else std::printf("# variant %s skipped: this CPU lacks %s\n", v.name, cpu_isa_name(v.isa));
    }
    return out;
}

}  // namespace warpdp::test
