// How every CUDA engine makes a chunk of targets resident: shared among the
// GPUs (targets sorted longest first (so a device's warps
// take neighbours of almost equal length and dynamic scheduling finishes
// with the short ones), each handed to the device with the fewest residues
// so far (the longest-processing-time rule keeps devices within one target
// of each other), then packed back to back for one upload per device. Plain
// C++: results are scattered back by input index, so the split changes
// speed, never results.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "core/base/errors.hpp"
#include "core/base/parallel.hpp"
#include "core/io/seq_batch.hpp"

namespace warpdp::cuda {

// Target indices by length, longest first, ties in input order. A chunk holds
// ~10^5-10^6 targets: a counting sort (lengths of 2^16 and more share the top
// bucket, sorted apart) instead of a comparison sort, which took a visible
// share of each chunk's upload (docs/benchmarks.md).
inline std::vector<uint32_t> longest_first(const SeqBatch& targets) {
    constexpr uint64_t kTop = uint64_t{1} << 16;
    const size_t n = targets.size();
    std::vector<uint32_t> start(kTop + 2, 0);  // start[kTop - b]: first slot of bucket b
    const auto bucket = [&](size_t i) { return std::min(targets.length(i), kTop); };
    for (size_t i = 0; i < n; ++i) ++start[kTop - bucket(i) + 1];
    for (size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
    std::vector<uint32_t> order(n);
    for (size_t i = 0; i < n; ++i) order[start[kTop - bucket(i)]++] = static_cast<uint32_t>(i);
    const auto top_end = order.begin() + static_cast<std::ptrdiff_t>(start[0]);
    std::stable_sort(order.begin(), top_end, [&](uint32_t a, uint32_t b) { return targets.length(a) > targets.length(b); });
    return order;
}

// parts[d] = input indices of the targets device slot d holds, longest first.
inline std::vector<std::vector<uint32_t>> split_longest_first(const SeqBatch& targets, size_t slots) {
    std::vector<uint32_t> order = longest_first(targets);
    std::vector<std::vector<uint32_t>> parts(slots);
    if (slots == 1) {  // one card: no rule to apply (the usual case, saving a copy of 10^5-10^6 indices a chunk)
        parts[0] = std::move(order);
        return parts;
    }
    std::vector<uint64_t> load(slots, 0);
    for (uint32_t idx : order) {
        size_t best = 0;
        for (size_t d = 1; d < slots; ++d)
            if (load[d] < load[best]) best = d;
        parts[best].push_back(idx);
        load[best] += targets.length(idx);
    }
    return parts;
}

// Where the residues of targets `which` go when packed back to back, each
// starting at a multiple of `align`, followed by a `tail` (kernels may read
// that far past a target): each target's offset and length, and the bytes.
struct PackedLayout {
    std::vector<uint64_t> off;
    std::vector<uint32_t> len;
    size_t bytes = 1;  // never 0, so buffers always exist
};

inline PackedLayout pack_layout(const SeqBatch& targets, const std::vector<uint32_t>& which, size_t align,
                                size_t tail) {
    PackedLayout p;
    p.off.resize(which.size());
    p.len.resize(which.size());
    size_t total = 0;
    for (size_t j = 0; j < which.size(); ++j) {
        const uint64_t L = targets.length(which[j]);
        if (L >= (uint64_t{1} << 31)) throw UsageError("target longer than 2^31 residues");
        p.off[j] = total;
        p.len[j] = static_cast<uint32_t>(L);
        total += (static_cast<size_t>(L) + align - 1) / align * align;
    }
    p.bytes = std::max<size_t>(total + tail, 1);
    return p;
}

// Writes the packed residues into dst[0, layout.bytes), gaps and tail as `pad`.
// dst is typically a StagingBuffer (cuda_check.cuh) reused chunk after chunk: a fresh vector
// per chunk costs more in page faults than the copy itself. A chunk is
// ~10^8 residues gathered out of order, so the copy takes all cores
// (destinations are disjoint: the result never depends on the threads).
inline void pack_residues(const SeqBatch& targets, const std::vector<uint32_t>& which, const PackedLayout& layout,
                          uint8_t pad, uint8_t* dst) {
    const size_t n = which.size();
    const unsigned threads = std::min(16u, std::max(1u, std::thread::hardware_concurrency()));
    parallel_for(n, threads, 4096, [&](size_t j) {
        const auto seq = targets.seq(which[j]);
        uint8_t* at = dst + layout.off[j];
        if (!seq.empty()) std::memcpy(at, seq.data(), seq.size());
        const size_t end = j + 1 < n ? layout.off[j + 1] : layout.bytes;
        std::memset(at + seq.size(), pad, end - layout.off[j] - seq.size());
    });
    if (n == 0) std::memset(dst, pad, layout.bytes);
}

}  // namespace warpdp::cuda
