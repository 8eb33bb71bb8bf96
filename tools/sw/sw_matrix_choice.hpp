// gpu-sw's scoring as its options name it (docs/sw.md §1, §2, §7): the
// matrix (a built-in name or an NCBI-format file), the gap costs in BLAST's
// convention and the engines', BLAST's statistics for them, and the codes the reader's letters take: the matrix's codes
// for scoring, identity classes for the columns that compare letters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/sw/sw_engine.hpp"
#include "core/sw/sw_matrix.hpp"
#include "core/sw/sw_stats.hpp"

namespace warpdp {

// --matrix: a built-in name in any case, else a file ("-": stdin). An empty
// value is a UsageError; a path that does not exist is an InputError that
// lists the built-in names (most likely a mistyped name).
SwMatrix choose_sw_matrix(const std::string& spec);

// --gap-open and --gap-extend, in BLAST's convention (blastp -gapopen
// -gapextend, DIAMOND, MMseqs2): a gap of k residues costs open + k * extend.
struct SwGapCosts {
    int open = 11, extend = 1;  // blastp's defaults
};

// The engines' scoring for the matrix and gap costs: the one place where
// BLAST's convention becomes the engines' first-residue cost open + extend
// (docs/sw.md §1). Both costs are checked (check_sw_args) before.
SwScoring sw_scoring(const SwMatrix& matrix, SwGapCosts gaps);

// BLAST's entry for the matrix and gap costs (BLAST's terms are the
// options'); a UsageError naming the pairs it has when it has none
// (--no-evalue is the way out, and callers with it do not ask).
SwKarlinParams choose_sw_statistics(const SwMatrix& matrix, SwGapCosts gaps);

// Easel's amino codes (what the reader gives) to a matrix's codes and to
// identity classes. Letters the matrix lacks (U, O, J with the built-ins)
// all take its unknown code, but BLAST counts a pair identical only when
// its letters are: each of them gets a class of its own past the matrix's
// codes; any other letter's class is its code.
struct SwCodes {
    explicit SwCodes(const SwMatrix& m);
    std::vector<uint8_t> to_matrix, to_class;
    // Whether Easel code x's class differs from its matrix code.
    bool own_class(uint8_t x) const noexcept { return to_class[x] != to_matrix[x]; }
};

}  // namespace warpdp
