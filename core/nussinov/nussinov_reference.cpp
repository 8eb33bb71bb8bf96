// The reference engine: the recurrence of docs/nussinov.md §3 written out
// literally over a full n x n table of int64_t, and the shared traceback
// (§4). O(n^3) time, 8 n^2 bytes: for the tests, which check the optimized
// engines against it and it against every structure of short sequences.
#include <algorithm>
#include <vector>

#include "core/nussinov/nussinov_engine.hpp"
#include "core/nussinov/nussinov_traceback.hpp"

namespace warpdp {

namespace {

class NussinovReference final : public NussinovEngine {
public:
    std::string name() const override { return "reference"; }
    void fold(std::span<const std::span<const uint8_t>> seqs, const NussinovParams& p, bool with_structure,
              std::span<NussinovFold> out) override {
        for (size_t s = 0; s < seqs.size(); ++s) out[s] = fold_one(seqs[s], p, with_structure);
    }

private:
    static NussinovFold fold_one(std::span<const uint8_t> a, const NussinovParams& p, bool with_structure) {
        const int64_t n = static_cast<int64_t>(a.size());
        if (n == 0) return {};
        std::vector<int64_t> table(static_cast<size_t>(n * n), 0);
        auto at = [&](int64_t i, int64_t j) -> int64_t& { return table[static_cast<size_t>(i * n + j)]; };
        auto C = [&](int64_t i, int64_t j) -> int64_t { return i <= j ? at(i, j) : 0; };  // empty: 0
        for (int64_t i = n - 1; i >= 0; --i) {
            for (int64_t j = i; j < n; ++j) {
                int64_t best = 0;  // C(i, i), where no term applies
                const int w = p.weight(a[static_cast<size_t>(i)], a[static_cast<size_t>(j)]);
                if (w >= 0 && j - i - 1 >= p.min_loop) best = std::max(best, C(i + 1, j - 1) + w);
                for (int64_t k = i; k <= j - 1; ++k) best = std::max(best, C(i, k) + C(k + 1, j));
                at(i, j) = best;
            }
        }
        if (!with_structure) {
            NussinovFold f;
            f.score = at(0, n - 1);
            return f;
        }
        return nussinov_traceback(a, p, [&](int64_t i, int64_t j) { return at(i, j); });
    }
};

}  // namespace

std::unique_ptr<NussinovEngine> make_nussinov_reference_engine() { return std::make_unique<NussinovReference>(); }

}  // namespace warpdp
