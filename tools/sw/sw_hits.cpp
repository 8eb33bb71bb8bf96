// gpu-sw's hits: ranking, the E-value cut, the checked traceback.
#include "tools/sw/sw_hits.hpp"

#include <algorithm>
#include <utility>

#include "core/base/errors.hpp"
#include "core/base/parallel.hpp"
#include "core/io/distinct_paths.hpp"

namespace warpdp {

void merge_sw_chunk(std::vector<SwHit>& top, std::span<const int32_t> scores, const SeqBatch& chunk,
                    const std::vector<uint8_t>& classes, uint64_t keep, int64_t min_score,
                    std::vector<std::shared_ptr<const SwHitTarget>>& copies) {
    const bool full = top.size() >= keep;
    const int64_t floor = full ? top.back().score + 1 : min_score;  // a later target must beat the last kept
    std::vector<std::pair<int64_t, uint32_t>> cand;
    for (size_t t = 0; t < scores.size(); ++t)
        if (scores[t] >= floor) cand.emplace_back(scores[t], static_cast<uint32_t>(t));
    if (cand.empty()) return;
    const auto before = [](const std::pair<int64_t, uint32_t>& a, const std::pair<int64_t, uint32_t>& b) {
        return sw_ranks_before(a.first, a.second, b.first, b.second);
    };
    if (cand.size() > keep) {
        std::nth_element(cand.begin(), cand.begin() + static_cast<std::ptrdiff_t>(keep), cand.end(), before);
        cand.resize(static_cast<size_t>(keep));
    }
    std::sort(cand.begin(), cand.end(), before);
    std::vector<SwHit> merged;
    merged.reserve(std::min<uint64_t>(keep, top.size() + cand.size()));
    size_t a = 0, b = 0;
    while (merged.size() < keep && (a < top.size() || b < cand.size())) {
        const bool take_old = b == cand.size() ||
                              (a < top.size() && sw_ranks_before(top[a].score, top[a].index, cand[b].first,
                                                                 chunk.first_index + cand[b].second));
        if (take_old) {
            merged.push_back(std::move(top[a++]));
            continue;
        }
        const uint32_t t = cand[b++].second;
        SwHit h;
        h.score = scores[t];
        h.index = chunk.first_index + t;
        if (!copies[t]) {
            auto copy = std::make_shared<SwHitTarget>();
            copy->name = chunk.names[t];
            const auto s = chunk.seq(t);
            copy->residues.assign(s.begin(), s.end());
            if (!classes.empty())
                copy->classes.assign(classes.begin() + static_cast<std::ptrdiff_t>(chunk.offsets[t]),
                                     classes.begin() + static_cast<std::ptrdiff_t>(chunk.offsets[t + 1]));
            copies[t] = std::move(copy);
        }
        h.target = copies[t];
        merged.push_back(std::move(h));
    }
    top = std::move(merged);
}

void cut_sw_hits_by_evalue(std::vector<SwHit>& hits, const SwKarlinParams& k, double search_space,
                           std::optional<double> max_evalue) {
    size_t keep = 0;
    for (; keep < hits.size(); ++keep) {
        const double e = sw_evalue(k, hits[keep].score, search_space);
        if (max_evalue && e > *max_evalue) break;
        hits[keep].evalue = e;
    }
    hits.resize(keep);
}

void trace_sw_hits(std::vector<std::vector<SwHit>>& hits, const std::vector<std::vector<uint8_t>>& query_codes,
                   const std::vector<std::vector<uint8_t>>& query_classes, const SwScoring& scoring, unsigned threads) {
    struct Job {
        size_t q, h;
    };
    std::vector<Job> jobs;
    for (size_t q = 0; q < hits.size(); ++q)
        for (size_t h = 0; h < hits[q].size(); ++h) jobs.push_back({q, h});
    parallel_for(jobs.size(), threads, 1, [&](size_t k) {
        SwHit& h = hits[jobs[k].q][jobs[k].h];
        const auto& qc = query_codes[jobs[k].q];
        const SwHitTarget& tg = *h.target;
        h.alignment = sw_align(qc, tg.residues, scoring);
        if (h.alignment.score != h.score)
            throw InternalError("target " + quoted_name(tg.name) + ": the engine scored " + std::to_string(h.score) +
                                ", the traceback " + std::to_string(h.alignment.score));
        if (sw_rescore(h.alignment, qc, tg.residues, scoring) != h.score)
            throw InternalError("target " + quoted_name(tg.name) + ": the alignment does not re-score to its score");
        h.counts = sw_count_columns(h.alignment, query_classes[jobs[k].q], tg.classes.empty() ? tg.residues : tg.classes);
    });
}

}  // namespace warpdp
