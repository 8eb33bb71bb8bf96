// MSV decisions per target. The engines only deliver xJ; everything after
// (nats, bits, P-values, bias filter) runs here on the host in the exact
// float/double order of hmmsearch, so every device gives the same answer.
#include "core/hmmer/msv/msv_search.hpp"

#include <algorithm>
#include <optional>
#include <span>
#include <vector>

#include "core/base/parallel.hpp"

namespace warpdp {

namespace {

// Targets per block handed to a thread: most fail below their length's floor
// at the cost of a compare, so blocks are large (core/base/parallel.hpp:
// parallel_filter). A chunk of no more targets than this is decided on the
// calling thread.
constexpr size_t kBlock = 4096;
// MSV passers per block handed to a thread in the bias filter (a log per residue).
constexpr size_t kBiasGrain = 256;

}  // namespace

void msv_decide(const MsvModel& model, const SeqBatch& chunk, std::span<const uint16_t> raw,
                const MsvSearchOptions& opt, std::vector<MsvRow>& rows, MsvModelTally& tally,
                const MsvPassFloor* floor) {
    const size_t first_new = rows.size();
    // Scores and P-values first, in parallel (a log and an exp per target
    // above its floor); then the blocks' rows are joined in target order.
    const auto found = parallel_filter<MsvRow>(chunk.size(), opt.threads, kBlock, [&](size_t t) {
        MsvRow r;
        r.target = chunk.first_index + t;
        r.length = chunk.length(t);
        // hmmsearch skips empty targets (they still count in Z); below its
        // floor a target fails, and without --all makes no row
        if (r.length > 0 && !(floor && !opt.all && floor->fails(raw[t], r.length))) {
            r.v = msv_stage_verdict(model, raw[t], r.length, opt.F1);
            r.scored = true;
            r.passed_msv = r.v.pass_msv;
        }
        return r.passed_msv || opt.all ? std::optional<MsvRow>(r) : std::nullopt;
    });
    std::vector<size_t> need_bias;  // indices into rows
    for (MsvRow r : found) {
        if (r.passed_msv) {
            ++tally.passed_msv;
            if (opt.bias) need_bias.push_back(rows.size());
            else r.passed = true;
        }
        rows.push_back(r);
    }
    // The bias filter costs a log per residue: only MSV survivors pay it, in
    // parallel groups whose targets share the filter's lanes.
    const size_t groups = (need_bias.size() + kBiasGrain - 1) / kBiasGrain;
    parallel_for(groups, opt.threads, 1, [&](size_t g) {
        const size_t begin = g * kBiasGrain, end = std::min(need_bias.size(), begin + kBiasGrain);
        std::vector<std::span<const uint8_t>> seqs;
        std::vector<MsvVerdict> vs;
        for (size_t j = begin; j < end; ++j) {
            const MsvRow& r = rows[need_bias[j]];
            seqs.push_back(chunk.seq(static_cast<size_t>(r.target - chunk.first_index)));
            vs.push_back(r.v);
        }
        msv_bias_stage(model, seqs, vs, opt.F1);
        for (size_t j = begin; j < end; ++j) {
            MsvRow& r = rows[need_bias[j]];
            r.v = vs[j - begin];
            r.bias_scored = true;
            r.passed = r.v.pass_bias;
        }
    });
    for (size_t i = first_new; i < rows.size(); ++i) tally.passed_bias += rows[i].passed ? 1 : 0;
    if (!opt.all) {  // survivors only: drop MSV passers the bias filter rejected
        rows.erase(std::remove_if(rows.begin() + static_cast<std::ptrdiff_t>(first_new), rows.end(),
                                  [](const MsvRow& r) { return !r.passed; }),
                   rows.end());
    }
}

}  // namespace warpdp
