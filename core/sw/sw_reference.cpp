// The reference engine: sw_engine.hpp's recurrences literally, in int64_t,
// one target after another, column by column (a column is a target
// position): H and E of the previous column sit in one array each, F and
// the diagonal are carried down the column.
#include "core/sw/sw_reference.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <vector>

#include "core/base/errors.hpp"

namespace warpdp {

void check_sw_scoring(const SwScoring& s) {
    if (s.matrix == nullptr) throw UsageError("no substitution matrix");
    if (s.gap_open < 1 || s.gap_open > 1000)
        throw UsageError("a gap's first residue must cost from 1 to 1000, not " + std::to_string(s.gap_open));
    if (s.gap_extend < 0 || s.gap_extend > s.gap_open)
        throw UsageError("a gap's further residues must cost from 0 to its first's (" + std::to_string(s.gap_open) +
                         "), not " + std::to_string(s.gap_extend));
}

void check_sw_load(const SeqBatch& targets, const SwScoring& scoring) {
    check_sw_scoring(scoring);
    for (size_t i = 0; i < targets.size(); ++i)
        if (targets.length(i) > kSwMaxLength)
            throw UsageError("target " + std::to_string(targets.first_index + i + 1) + " has " +
                             std::to_string(targets.length(i)) + " residues, more than the " +
                             std::to_string(kSwMaxLength) + " gpu-sw takes");
}

void check_sw_score_call(bool loaded, size_t loaded_targets, std::span<const uint8_t> query, size_t score_slots) {
    if (!loaded) throw InternalError("SwEngine::score before load");
    if (score_slots != loaded_targets)
        throw InternalError("SwEngine::score: " + std::to_string(score_slots) + " score slots for " +
                            std::to_string(loaded_targets) + " targets");
    if (query.size() > kSwMaxLength)
        throw UsageError("a query of " + std::to_string(query.size()) + " residues, more than the " +
                         std::to_string(kSwMaxLength) + " gpu-sw takes");
}

int64_t sw_reference_score(std::span<const uint8_t> query, std::span<const uint8_t> target, const SwScoring& sc) {
    constexpr int64_t kNegInf = std::numeric_limits<int64_t>::min() / 4;
    const int64_t open = sc.gap_open, ext = sc.gap_extend;
    const size_t m = query.size();
    // H(i, j) and E(i, j) of the last column done, for i = 1..m at index i;
    // index 0 is the border row.
    std::vector<int64_t> H(m + 1, 0), E(m + 1, kNegInf);
    int64_t best = 0;
    for (uint8_t t : target) {
        int64_t diag = 0;  // H(i-1, j-1)
        int64_t f = kNegInf;
        for (size_t i = 1; i <= m; ++i) {
            const int64_t e = std::max(H[i] - open, E[i] - ext);  // E(i, j) from H(i, j-1), E(i, j-1)
            const int64_t h_up = H[i - 1];                         // H(i-1, j), already this column's
            f = std::max(h_up - open, f - ext);                    // F(i, j)
            const int64_t h = std::max({int64_t{0}, diag + sc.matrix->score(query[i - 1], t), e, f});
            diag = H[i];
            H[i] = h;
            E[i] = e;
            best = std::max(best, h);
        }
    }
    return best;
}

namespace {

class SwReference final : public SwEngine {
public:
    std::string name() const override { return "reference"; }
    void load(const SeqBatch& targets, const SwScoring& scoring) override {
        check_sw_load(targets, scoring);
        targets_ = &targets;
        scoring_ = scoring;
    }
    void score(std::span<const uint8_t> query, std::span<int32_t> scores) override {
        check_sw_score_call(targets_ != nullptr, targets_ ? targets_->size() : 0, query, scores.size());
        const auto t0 = std::chrono::steady_clock::now();
        for (size_t t = 0; t < targets_->size(); ++t)
            scores[t] = static_cast<int32_t>(sw_reference_score(query, targets_->seq(t), scoring_));
        stats_.cells = query.size() * targets_->total_residues();
        stats_.recomputed = 0;
        stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    SwEngineStats last_stats() const override { return stats_; }

private:
    const SeqBatch* targets_ = nullptr;
    SwScoring scoring_;
    SwEngineStats stats_;
};

}  // namespace

std::unique_ptr<SwEngine> make_sw_reference_engine() { return std::make_unique<SwReference>(); }

}  // namespace warpdp
