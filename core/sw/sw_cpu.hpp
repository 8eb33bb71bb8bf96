// The CPU engine of gpu-sw (docs/sw.md §5): striped (Farrar) query profiles
// scored against one target at a time by the kernels of one variant from
// the table below (core/base/simd_variants.hpp), 16-bit saturating lanes
// first and 32-bit lanes for the targets whose 16-bit result may have
// saturated; threads over the targets.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/base/aligned_alloc.hpp"
#include "core/base/simd_variants.hpp"
#include "core/sw/sw_engine.hpp"

namespace warpdp {

// One entry of the table: lane counts and kernels (sw_striped_kernels.hpp).
// A variant without a 16-bit kernel (lanes16 == 0) scores in 32 bits only.
struct SwCpuKernels {
    int lanes16;
    int32_t (*i16)(const int16_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                   int gap_extend, int16_t* scratch);
    int lanes32;
    int32_t (*i32)(const int32_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                   int gap_extend, int32_t* scratch);
    // The same kernels also giving the end of sw_traceback.hpp's rule.
    int32_t (*end_i16)(const int16_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                       int gap_extend, int16_t* scratch, uint64_t* end_i, uint64_t* end_j);
    int32_t (*end_i32)(const int32_t* profile, int seg_len, const uint8_t* target, uint64_t n, int gap_open,
                       int gap_extend, int32_t* scratch, uint64_t* end_i, uint64_t* end_j);
};
using SwCpuVariant = SimdVariant<SwCpuKernels>;

// Best first: sw_striped_avx2 (x86-64), sw_striped_sse2 (x86-64),
// sw_striped_base (one int32 lane, every CPU).
std::span<const SwCpuVariant> sw_cpu_variants();

// A query's striped profile for `lanes` lanes: profile[code][segment][lane]
// holds the entry of query position lane * seg_len + segment against code
// (0 past the query's end), for every code of the matrix; transposed, the
// entry of code against that position (the sequence is then the target of
// the matrix: sw_find_end's swapped roles).
template <class T>
struct SwStripedProfile {
    int seg_len = 0, lanes = 0;
    std::vector<T, AlignedAlloc<T>> values;
};
SwStripedProfile<int16_t> build_sw_profile_i16(std::span<const uint8_t> query, const SwMatrix& m, int lanes,
                                               bool transposed = false);
SwStripedProfile<int32_t> build_sw_profile_i32(std::span<const uint8_t> query, const SwMatrix& m, int lanes,
                                               bool transposed = false);

// The best local score of a against b and the first cell reaching it: the
// smallest position j of b, then the smallest position i of a, whose H is
// the score (sw_traceback.hpp's end), with v's kernels (16 bits first, 32
// when they may have saturated). With transposed, a is scored as the
// target and b as the query (the matrix read as s(b letter, a letter)).
// i and j are 0 when the score is 0.
struct SwEnd {
    int64_t score = 0;
    uint64_t i = 0, j = 0;
};
SwEnd sw_find_end(const SwCpuVariant& v, std::span<const uint8_t> a, std::span<const uint8_t> b, const SwScoring& scoring,
                  bool transposed = false);

// One variant bound to one query; keeps its scratch across targets. Not
// thread-safe: one scorer per thread (they may share nothing but `query`).
class SwCpuScorer {
public:
    // Throws std::invalid_argument if this CPU lacks v's instruction set.
    SwCpuScorer(const SwCpuVariant& v, std::span<const uint8_t> query, const SwScoring& scoring);
    // The exact score; *recomputed (when given) is set when the 16-bit
    // result had to be redone in 32 bits. force_i32 skips the 16-bit pass.
    int32_t score(std::span<const uint8_t> target, bool* recomputed = nullptr, bool force_i32 = false);

private:
    SwCpuVariant v_;
    std::span<const uint8_t> query_;
    SwScoring sc_;
    SwStripedProfile<int16_t> p16_;
    SwStripedProfile<int32_t> p32_;  // built on first need
    std::vector<int16_t, AlignedAlloc<int16_t>> s16_;
    std::vector<int32_t, AlignedAlloc<int32_t>> s32_;
};

struct SwCpuOptions {
    unsigned threads = 1;    // 0 counts as 1
    bool force_i32 = false;  // 32-bit lanes only (tests, benchmarks)
};

// The engine. It runs choose_variant<sw_cpu_variants>(), or `v` when given
// (tests, benchmarks; one this CPU lacks throws std::invalid_argument).
// Every variant, option and thread count gives the reference's scores.
std::unique_ptr<SwEngine> make_sw_cpu_engine(unsigned threads);
std::unique_ptr<SwEngine> make_sw_cpu_engine(const SwCpuOptions& opt, const SwCpuVariant& v);

}  // namespace warpdp
