// force_variant() of the CUDA engines that tests and benchmarks drive by
// kernel name: one lookup in the engine's table of named instances.
#pragma once

#include <cstddef>
#include <string>

#include "core/base/errors.hpp"

namespace warpdp {

// -1 (the engine's own choice) for "", else the index of the entry of
// `table` named `name`; an unknown name is a UsageError naming `what`.
template <class Entry, std::size_t N>
int forced_variant_index(const Entry (&table)[N], const std::string& name, const std::string& what) {
    if (name.empty()) return -1;
    for (std::size_t i = 0; i < N; ++i)
        if (name == table[i].name) return static_cast<int>(i);
    throw UsageError("no " + what + " named \"" + name + "\"");
}

}  // namespace warpdp
