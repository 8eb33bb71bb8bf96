// What every gpu-sw engine (the scalar reference, the CPU engine, the CUDA
// engine) computes: the best local alignment score of one query against
// every target of a database chunk loaded once (docs/sw.md §1-§3). Engines
// return scores only; the alignments of the hits a run reports are traced on
// the host by core/sw/sw_traceback.hpp, for every engine alike.
//
// The contract, exactly:
//  - Score: the Smith-Waterman maximum over all local alignments of the
//    query (rows, matrix row letters) and a target (columns, matrix column
//    letters) under scoring.matrix, where a gap of k >= 1 residues costs
//    gap_open + (k - 1) * gap_extend (parasail's and CUDASW++'s convention;
//    BLAST's existence cost is gap_open - gap_extend). A gap in the query may
//    follow a gap in the target directly and vice versa. The empty alignment
//    scores 0, so no score is negative; an empty query or target scores 0.
//    In recurrences (docs/sw.md §3), with s(i, j) the matrix entry of query
//    code i and target code j:
//        E(i,j) = max(H(i,j-1) - open, E(i,j-1) - extend)   gap in the query
//        F(i,j) = max(H(i-1,j) - open, F(i-1,j) - extend)   gap in the target
//        H(i,j) = max(0, H(i-1,j-1) + s(q_i, t_j), E(i,j), F(i,j))
//    with H = 0 and E = F = -infinity outside the matrix; score = max H.
//  - Exactness: the score returned is that integer, for every target. An
//    engine that computes in narrow lanes (16-bit) must notice, per target,
//    when a lane may have saturated (with saturating adds on scores that
//    are never negative: a 16-bit result at or above kSwInt16Ceiling), and
//    recompute exactly those targets in 32 bits before returning. Scores are int32: lengths are at most kSwMaxLength, so with
//    |entries| <= kSwMaxEntry no score can exceed 2^31 - 1.
//  - Ties: there are none to break here (one integer per target); hits of
//    equal score are ranked by database order by the tool, and the
//    alignment reported for a hit is chosen by the traceback's rule
//    (sw_traceback.hpp), never by an engine.
//  - Determinism: results never depend on the engine, the thread count, the
//    GPUs or how the database was cut into chunks.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/io/seq_batch.hpp"
#include "core/sw/sw_matrix.hpp"

namespace warpdp {

// Longest query or target any engine takes (kSwMaxLength * kSwMaxEntry < 2^31).
inline constexpr uint64_t kSwMaxLength = 10'000'000;
// A 16-bit lane result at or above this may have saturated: recompute in 32 bits.
inline constexpr int kSwInt16Ceiling = 32767;

struct SwScoring {
    const SwMatrix* matrix = nullptr;  // not owned; outlives the engine's use
    int gap_open = 11;                 // cost of a gap's first residue, >= 1
    int gap_extend = 1;                // cost of each further residue, 0 <= extend <= open
};

// Throws UsageError unless 1 <= open <= 1000, 0 <= extend <= open and a matrix is set.
void check_sw_scoring(const SwScoring& s);
// What every engine's load() checks first: the scoring, and no target
// longer than kSwMaxLength (UsageError).
void check_sw_load(const SeqBatch& targets, const SwScoring& scoring);
// What every engine's score() checks first: a batch loaded, one score slot a
// target (InternalError: the caller's mistake), a query of at most
// kSwMaxLength residues (UsageError).
void check_sw_score_call(bool loaded, size_t loaded_targets, std::span<const uint8_t> query, size_t score_slots);

// What the last score() call did (for --stats and the benchmarks).
struct SwEngineStats {
    uint64_t cells = 0;       // query length x the loaded targets' residues
    uint64_t recomputed = 0;  // targets whose narrow result was redone in 32 bits
    double seconds = 0;       // wall time of the call
};

class SwEngine {
public:
    virtual ~SwEngine() = default;
    virtual std::string name() const = 0;

    // Makes `targets` the database chunk that later score() calls search:
    // residues are codes of scoring.matrix (SwMatrix::code_of), records back
    // to back with offsets (SeqBatch's layout; names are not used). The engine
    // may keep pointers into `targets` or copy it (the CUDA engine uploads it
    // to each GPU once, where it stays for every query until the next load);
    // the caller keeps it alive and unchanged until the next load() or the
    // engine's end. Throws UsageError for a target longer than kSwMaxLength.
    virtual void load(const SeqBatch& targets, const SwScoring& scoring) = 0;

    // The best local score of `query` (codes of the same matrix, at most
    // kSwMaxLength) against every loaded target: scores[t] for target t,
    // scores.size() == the loaded batch's size().
    virtual void score(std::span<const uint8_t> query, std::span<int32_t> scores) = 0;

    virtual SwEngineStats last_stats() const = 0;
};

// The recurrences above written out in int64_t over one row, one target
// after another: what the tests hold every other engine to.
std::unique_ptr<SwEngine> make_sw_reference_engine();

}  // namespace warpdp
