// gpu-sw's hits (docs/sw.md §8): per query the best --max-hits targets by
// score, equal scores in database order, merged chunk by chunk so that the
// result never depends on how the database was cut; the --evalue cut; and
// the alignments of what is kept, traced on the host and checked.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/io/seq_batch.hpp"
#include "core/sw/sw_engine.hpp"
#include "core/sw/sw_stats.hpp"
#include "core/sw/sw_traceback.hpp"

namespace warpdp {

// A kept target's name and residues (matrix codes), copied out of its chunk
// (gone by the time it is aligned), and its identity classes when they
// differ from its codes: one copy however many queries keep it.
struct SwHitTarget {
    std::string name;
    std::vector<uint8_t> residues, classes;
};

// A hit kept for a query: the target's index in the database and its copy;
// the E-value once known, the alignment once traced.
struct SwHit {
    int64_t score = 0;
    uint64_t index = 0;
    std::shared_ptr<const SwHitTarget> target;
    double evalue = 0;
    SwAlignment alignment;
    SwColumnCounts counts;
};

// Whether (score a, database index a) ranks before (score b, index b).
inline bool sw_ranks_before(int64_t sa, uint64_t ia, int64_t sb, uint64_t ib) { return sa != sb ? sa > sb : ia < ib; }

// Merges a chunk's scores (one a target) into a query's best `keep` hits
// with score >= min_score, equal scores in database order (chunk.first_index
// + t). A full list takes only scores above its last. classes: the chunk's
// identity classes residue by residue, or empty where they are its codes.
// copies: one slot a chunk target, shared by every query of the chunk, so
// that a target kept by several queries is copied once.
void merge_sw_chunk(std::vector<SwHit>& top, std::span<const int32_t> scores, const SeqBatch& chunk,
                    const std::vector<uint8_t>& classes, uint64_t keep, int64_t min_score,
                    std::vector<std::shared_ptr<const SwHitTarget>>& copies);

// Sets the E-value of each of a query's hits (ranked best first) over
// `search_space` (its length x the database's residues); with max_evalue,
// drops the hits from the first whose E-value exceeds it: E-values only
// grow down the list.
void cut_sw_hits_by_evalue(std::vector<SwHit>& hits, const SwKarlinParams& k, double search_space,
                           std::optional<double> max_evalue);

// Traces the alignment of every hit of every query (threads share all the
// hits) and counts its columns against the identity classes. Each must keep
// the invariants of a reported alignment (docs/sw.md §4): the engine's
// score, and that score again from its columns alone; InternalError naming
// the target otherwise.
void trace_sw_hits(std::vector<std::vector<SwHit>>& hits, const std::vector<std::vector<uint8_t>>& query_codes,
                   const std::vector<std::vector<uint8_t>>& query_classes, const SwScoring& scoring, unsigned threads);

}  // namespace warpdp
