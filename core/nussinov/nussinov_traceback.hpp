// The one traceback rule of docs/nussinov.md §4, shared by the reference and
// the CPU engine (the CUDA engine walks the same rule on the GPU,
// docs/nussinov.md §10.1), so that all of them write the same structure for
// the same table; and an independent check of a structure (balanced, allowed pairs,
// min_loop, its score), for the tests and the tool's debugging.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/base/errors.hpp"
#include "core/nussinov/nussinov_engine.hpp"

namespace warpdp {

// The structure the rule of docs/nussinov.md §4 reads from a filled table.
// cell(i, j) returns C(i, j) as int64_t for 0 <= i <= j < n; it is never
// asked for an empty interval. The result's score is C(0, n-1). The
// intervals wait on an explicit stack (n may be 10^5: no recursion).
template <class Cell>
NussinovFold nussinov_traceback(std::span<const uint8_t> codes, const NussinovParams& p, const Cell& cell) {
    NussinovFold f;
    const int64_t n = static_cast<int64_t>(codes.size());
    f.structure.assign(codes.size(), '.');
    if (n == 0) return f;
    f.score = cell(0, n - 1);
    // Empty or one-base intervals need no lookup; C(i, j) for i > j is 0.
    auto C = [&cell](int64_t i, int64_t j) -> int64_t { return i < j ? cell(i, j) : 0; };
    // With every weight > 0, an interval of score 0 has no pair, and the
    // rule would split it at k = i all the way down (rule 1 needs
    // C(i+1, j-1) + w = 0): skipping it changes nothing.
    const bool zero_means_unpaired = p.w_gc > 0 && p.w_au > 0 && (!p.gu || p.w_gu > 0);
    std::vector<std::pair<int64_t, int64_t>> stack{{0, n - 1}};
    while (!stack.empty()) {
        auto [i, j] = stack.back();
        stack.pop_back();
        // An interval split at k = i continues as (i+1, j) in this loop
        // rather than on the stack, so long unpaired runs cost no pushes.
        while (i < j) {
            const int64_t c = cell(i, j);
            if (c == 0 && zero_means_unpaired) break;
            const int w = p.weight(codes[static_cast<size_t>(i)], codes[static_cast<size_t>(j)]);
            if (w >= 0 && j - i - 1 >= p.min_loop && c == C(i + 1, j - 1) + w) {
                f.structure[static_cast<size_t>(i)] = '(';
                f.structure[static_cast<size_t>(j)] = ')';
                ++f.pairs;
                ++i;
                --j;
                continue;
            }
            int64_t k = i;
            while (k < j && c != C(i, k) + cell(k + 1, j)) ++k;
            if (k == j) throw InternalError("nussinov_traceback: the table does not follow the recurrence at (" +
                                            std::to_string(i) + ", " + std::to_string(j) + ")");
            if (k == i) {
                ++i;
                continue;
            }
            stack.emplace_back(k + 1, j);
            j = k;
        }
    }
    return f;
}

// What nussinov_check_structure finds.
struct NussinovStructureCheck {
    std::string error;  // empty when the structure is valid
    int64_t score = 0;  // the sum of its pairs' weights (when valid)
    uint64_t pairs = 0;
    bool ok() const noexcept { return error.empty(); }
};

// Re-reads a dot-bracket structure for `codes` without any table: its length,
// balanced brackets, only pairs `p` allows (docs/nussinov.md §2), at least
// p.min_loop unpaired bases inside each pair; and its score.
NussinovStructureCheck nussinov_check_structure(std::span<const uint8_t> codes, const NussinovParams& p,
                                                const std::string& structure);

}  // namespace warpdp
