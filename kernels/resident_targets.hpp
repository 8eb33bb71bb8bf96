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
#include <numeric>
#include <vector>

#include "core/errors.hpp"
#include "core/seq_batch.hpp"

namespace warpdp::cuda {

// parts[d] = input indices of the targets device slot d holds, longest first.
inline std::vector<std::vector<uint32_t>> split_longest_first(const SeqBatch& targets, size_t slots) {
    std::vector<uint32_t> order(targets.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return targets.length(a) > targets.length(b); });
    std::vector<std::vector<uint32_t>> parts(slots);
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

// The residues of targets `which` back to back, each starting at a multiple
// of `align`, gaps and a final `tail` filled with `pad` (kernels may read
// that far past a target), with each target's offset and length.
struct PackedTargets {
    std::vector<uint8_t> res;
    std::vector<uint64_t> off;
    std::vector<uint32_t> len;
};

inline PackedTargets pack_targets(const SeqBatch& targets, const std::vector<uint32_t>& which, size_t align,
                                  uint8_t pad, size_t tail) {
    PackedTargets p;
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
    p.res.assign(std::max<size_t>(total + tail, 1), pad);
    for (size_t j = 0; j < which.size(); ++j) {
        const auto seq = targets.seq(which[j]);
        if (!seq.empty()) std::memcpy(p.res.data() + p.off[j], seq.data(), seq.size());
    }
    return p;
}

}  // namespace warpdp::cuda
