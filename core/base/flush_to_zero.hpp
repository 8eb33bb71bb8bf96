// hmmsearch computes its float stages with the SSE flush-to-zero bit set
// (docs/hmmer-filters.md §10). FlushToZero sets it for a scope and restores
// the thread's mode after; where the bit does not exist (not x86-64),
// kHardwareFtz is false and the caller flushes each result in software.
#pragma once

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace warpdp {

#if defined(__SSE2__)
inline constexpr bool kHardwareFtz = true;
class FlushToZero {
public:
    FlushToZero() : saved_(_mm_getcsr()) { _mm_setcsr(saved_ | 0x8000u); }
    ~FlushToZero() { _mm_setcsr(saved_); }
    FlushToZero(const FlushToZero&) = delete;
    FlushToZero& operator=(const FlushToZero&) = delete;

private:
    unsigned saved_;
};
#else
inline constexpr bool kHardwareFtz = false;
struct FlushToZero {};
#endif

}  // namespace warpdp
