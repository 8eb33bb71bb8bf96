// What every gpu-sw engine (the scalar reference, the CPU engine, the CUDA
// engine) computes: the exact best local alignment score (int32, never
// negative) of one query against every target of a database chunk loaded
// once, a gap of k residues costing gap_open + (k - 1) * gap_extend. An
// engine computing in 16-bit lanes recomputes in 32 bits every target whose
// result reaches kSwInt16Ceiling. Results never depend on the engine,
// threads, GPUs or chunking; alignments are traced on the host
// (core/sw/sw_traceback.hpp). The contract in full: docs/sw.md §1-§3.
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

// The engines' convention (parasail's): gap_open is the first residue's cost.
// gpu-sw's options are BLAST's (existence + k * extension); tools/sw's
// sw_scoring() converts (docs/sw.md §1).
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
