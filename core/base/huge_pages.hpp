// A hint for large buffers that are filled once and reused (a chunk of
// residues, ~10^8 bytes): faulting them in 4 KiB pages can cost more than
// writing them, so where the kernel gives transparent huge pages on request,
// ask for them. Nothing changes when the hint is ignored.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

namespace warpdp {

inline void advise_huge_pages(const void* p, size_t bytes) {
#ifdef MADV_HUGEPAGE
    constexpr uintptr_t kHuge = uintptr_t{2} << 20;
    const auto begin = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
    const auto end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHuge - 1);
    if (end > begin) static_cast<void>(madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE));
#else
    static_cast<void>(p);
    static_cast<void>(bytes);
#endif
}

}  // namespace warpdp
