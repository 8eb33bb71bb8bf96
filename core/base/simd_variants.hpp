// CPU SIMD variants, one mechanism for every family that has them: a table
// of SimdVariant entries per kernel, best first, choose_variant's pick made
// once per process, and every entry testable by name. Per-ISA files are
// compiled inside a target region (avx2_region_begin.hpp), never with
// -mavx2, because of the one-definition rule; tests/simd_isa.sh checks it.
// Layout, naming and the region rules: docs/architecture.md, "CPU SIMD
// variants". A per-ISA file includes its family's plain kernel header, not
// this one.
#pragma once

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace warpdp {

// What a variant's code needs of the CPU.
enum class CpuIsa { base, sse2, ssse3, avx2 };

// "base", "sse2", "ssse3", "avx2": the <isa> of variant names and engine names.
const char* cpu_isa_name(CpuIsa isa) noexcept;

// Whether this CPU runs code built for `isa`: the one place the CPU is
// asked (once; the answer is kept). sse2 is false off x86-64.
bool cpu_supports(CpuIsa isa) noexcept;

// One entry of a family's table. Kernels is the family's own struct of
// function pointers and the parameters that go with them (vector width).
template <class Kernels>
struct SimdVariant {
    const char* name;
    CpuIsa isa;
    Kernels kernels;
};

template <class Kernels>
using SimdVariants = std::span<const SimdVariant<Kernels>>;

// The first entry of `table` this CPU runs (tables are ordered best first).
// Throws std::runtime_error when there is none (a table with no base entry,
// off x86-64).
template <class K>
const SimdVariant<K>& best_supported(SimdVariants<K> table) {
    for (const auto& v : table)
        if (cpu_supports(v.isa)) return v;
    std::string names;
    for (const auto& v : table) names += (names.empty() ? "" : ", ") + std::string(v.name);
    throw std::runtime_error("no CPU variant among [" + names + "] runs on this CPU");
}

// best_supported(Table()), decided on the first call and kept: the variant
// a family's engines run unless told otherwise. Table is the family's
// table function, e.g. choose_variant<msv_cpu_variants>().
template <auto Table>
const auto& choose_variant() {
    static const auto& chosen = best_supported(Table());
    return chosen;
}

// The entry of `table` called `name`; an unknown name throws
// std::invalid_argument that lists the table's names.
template <class K>
const SimdVariant<K>& variant_by_name(SimdVariants<K> table, std::string_view name) {
    std::string names;
    for (const auto& v : table) {
        if (name == v.name) return v;
        names += (names.empty() ? "" : ", ") + std::string(v.name);
    }
    throw std::invalid_argument("unknown CPU variant '" + std::string(name) + "' (known: " + names + ")");
}

// Throws std::invalid_argument unless this CPU runs `v`: a forced variant
// is checked once, where it is taken, not in the hot loop.
template <class K>
void require_supported(const SimdVariant<K>& v) {
    if (!cpu_supports(v.isa))
        throw std::invalid_argument(std::string("CPU variant ") + v.name + " needs " + cpu_isa_name(v.isa) +
                                    ", which this CPU lacks");
}

}  // namespace warpdp
