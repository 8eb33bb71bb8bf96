// An allocator for std::vector whose storage starts on a 64-byte boundary,
// whatever alignof(T) says. A 32-byte vector load from malloc's 16-byte
// alignment would straddle a cache line every other time; and GCC gives a
// 32-byte GCC vector type (vector_size(32)) an alignment of 16 in code built
// for SSE2 but 32 in code built for AVX2, so storage that std::vector
// allocates in baseline code and an AVX2 kernel reads with aligned loads
// must have the larger alignment spelled out, not taken from the type.
#pragma once

#include <cstddef>
#include <new>

namespace warpdp {

template <class T>
struct AlignedAlloc {
    using value_type = T;
    static constexpr std::align_val_t kAlign{64};
    AlignedAlloc() = default;
    template <class U>
    AlignedAlloc(const AlignedAlloc<U>&) noexcept {}
    T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlign)); }
    void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, kAlign); }
    template <class U>
    bool operator==(const AlignedAlloc<U>&) const noexcept { return true; }
};

}  // namespace warpdp
