// CPU SIMD variants: one mechanism for every family that has them (MSV,
// Viterbi, the bias filter, NW, Nussinov, and the sequence reader's letter
// lookup; the Forward filter has one form only, as core/hmmer/fwd/fwd_cpu.hpp
// says).
//
// A family writes its kernel once, as a template over a small struct of
// vector operations (or over GCC vector types) in <kernel>_kernel_impl.hpp,
// and instantiates it in one source file per instruction set, named after
// the variant it defines (<kernel>_<isa>[_<element>].cpp: msv_striped_avx2_u8
// in msv_striped_avx2_u8.cpp); <kernel>_kernels.hpp declares their entry
// points in plain types (the bias filter's lanes, AVX2 only, need no
// template), in namespace warpdp::<kernel> (docs/architecture.md). It
// lists the instances in one table of SimdVariant entries, best first,
// defined next to its engine (<family>_cpu.cpp; the bias filter's in
// bias_filter.cpp). Engines run choose_variant's pick, made once per
// process; tests and benchmarks walk the whole table by name and skip,
// saying so, the entries this CPU cannot run, so no variant goes untested
// because the CPU has a better one.
//
// Names follow <algorithm>_<layout>_<isa>[_<element>], as parasail's do:
// msv_striped_avx2_u8 is MSV on a striped profile in AVX2 registers of
// unsigned bytes; "base" is code for the build's own target (on x86-64,
// SSE2) that runs on every CPU the build runs on.
//
// How per-ISA code is compiled. SSE2 is the x86-64 baseline, so sse2 and
// base files need nothing. An <x>_avx2[_<element>].cpp file opens a target region
// (core/base/avx2_region_begin.hpp, avx2_region_end.hpp) after its last
// #include, and defines everything inside it in an anonymous namespace but
// its exported entry points, whose names end in _avx2; no file is built
// with -mavx2. The reason is the one-definition rule: an inline function
// or template instance that two translation units both emit (a std::
// template, a helper from a shared header) is kept once by the linker,
// from either unit. With -mavx2 on the whole file, the copy kept can be the
// AVX2 one, which then runs on the baseline path too and crashes a CPU
// without AVX2 (and on one with it, leaves the baseline variant untested).
// Inside a region, code from headers included before it keeps the
// baseline target it was declared with, std:: templates instantiated in
// the region included, and what the region defines is local to its file.
// tests/simd_isa.sh checks the built objects: no AVX2 code in any symbol
// the linker may share, and no exported name without _avx2. One catch: GCC
// aligns a 32-byte GCC vector type to 16 bytes outside the region and to 32
// inside, so memory that baseline code allocates for such vectors takes its
// alignment from core/base/aligned_alloc.hpp, not from the type.
//
// A variant that is one function (core/io/letter_digitizer.cpp's SSSE3
// lookup) carries the same target attribute on that function alone, in an
// anonymous namespace, calling only functions of its own file.
//
// For code compiled for the baseline only: a per-ISA file includes its
// family's plain kernel header, never this one.
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
