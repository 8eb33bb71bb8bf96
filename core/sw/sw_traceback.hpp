// The one alignment gpu-sw reports for a hit, whatever the engine that
// scored it (docs/sw.md §4), traced on the host in bounded memory, and the
// independent checks of an alignment (re-scoring, column counts, CIGAR).
//
// Among the local alignments of the best score S > 0, the rule picks:
//  1. the end: the last pair (query i, target j) with the smallest target
//     position j, then the smallest query position i (as parasail_aligner
//     reports its end positions);
//  2. the start: among the alignments of score S ending there, the one
//     whose first pair has the largest query position, then the largest
//     target position (the shortest);
//  3. the columns between: among the alignments of score S from that start
//     to that end, the one whose column string, read from the end back to
//     the start, comes first when a pair ('M') < a query residue against a
//     gap ('I') < a target residue against a gap ('D').
// Alignments begin and end with a pair (gap_open >= 1 makes a leading or
// trailing gap cost). With S == 0 there is no alignment (all fields 0).
//
// Memory: sw_align keeps O(query + target) for steps 1 and 2 (the CPU
// engine's striped kernels over the whole table, then over the reversed
// prefixes up to the end, each noting the first cell that reaches S), and
// for step 3 one byte of traceback per cell of the start-end rectangle when
// that fits memory_cells, else the rectangle's score rows at checkpoints
// every h rows and one block of h rows of traceback bytes at a time,
// recomputed from its checkpoint as the trace walks up (twice the
// rectangle's cells in time).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/sw/sw_cpu.hpp"
#include "core/sw/sw_engine.hpp"

namespace warpdp {

struct SwAlignment {
    int64_t score = 0;
    // 0-based, half-open: query [qbegin, qend), target [tbegin, tend).
    uint64_t qbegin = 0, qend = 0, tbegin = 0, tend = 0;
    // One letter a column, start to end: 'M' a query residue paired with a
    // target residue, 'I' a query residue against a gap, 'D' a target
    // residue against a gap (SAM's sense, the query being the read).
    std::string ops;
    bool operator==(const SwAlignment&) const = default;
};

struct SwAlignOptions {
    // Traceback bytes step 3 may hold at once: the rectangle's rows are
    // traced in blocks of memory_cells / (rectangle width) rows. Tests
    // shrink it to force the checkpointed form on small inputs.
    uint64_t memory_cells = uint64_t{1} << 26;
    // Cells of checkpoint rows (24 bytes each) step 3 may keep.
    uint64_t checkpoint_cells = uint64_t{1} << 25;
    // The CPU variant whose kernels run steps 1 and 2 (sw_cpu.hpp); null:
    // the one the engines choose. Tests force each.
    const SwCpuVariant* variant = nullptr;
};

// The alignment of the rule above, in bounded memory. Throws ResourceError
// when the checkpoint rows would exceed checkpoint_cells (a rectangle of
// about 130,000 x 130,000 residues with the defaults).
SwAlignment sw_align(std::span<const uint8_t> query, std::span<const uint8_t> target, const SwScoring& scoring,
                     const SwAlignOptions& opt = {});

// The same rule over full int64_t tables of every step: the reference the
// tests hold sw_align to (and the brute force holds it to).
SwAlignment sw_align_full(std::span<const uint8_t> query, std::span<const uint8_t> target, const SwScoring& scoring);

// The score of `a`'s columns over query and target, computed from the
// columns alone (affine gaps: a run of k 'I' or k 'D' costs open +
// (k - 1) extend). Throws InternalError when the columns do not span exactly
// [qbegin, qend) x [tbegin, tend) or do not begin and end with 'M'.
int64_t sw_rescore(const SwAlignment& a, std::span<const uint8_t> query, std::span<const uint8_t> target,
                   const SwScoring& scoring);

// BLAST's alignment counts: length (columns, gaps included), identities
// (pairs of equal codes), mismatches (other pairs), gap columns, and gap
// opens (runs of 'I' or of 'D').
struct SwColumnCounts {
    uint64_t length = 0, identities = 0, mismatches = 0, gaps = 0, gap_opens = 0;
};
SwColumnCounts sw_count_columns(const SwAlignment& a, std::span<const uint8_t> query, std::span<const uint8_t> target);

// "12M2I30M1D4M": runs of equal ops, SAM's letters.
std::string sw_cigar(const std::string& ops);

}  // namespace warpdp
