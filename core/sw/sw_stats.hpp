// Karlin-Altschul statistics of gpu-sw's scores (docs/sw.md §7): the gapped
// lambda and K that NCBI BLAST tabulates for a matrix and gap costs, bit
// scores, and E-values over a search space of the query's length times the
// database's residues (no edge-effect correction of the lengths).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/sw/sw_engine.hpp"

namespace warpdp {

struct SwKarlinParams {
    double lambda = 0, K = 0;
    int existence = 0, extension = 0;  // BLAST's gap costs of the entry
    std::string matrix;                // its matrix
};

// The entry for a matrix of BLAST's (by name: BLOSUM45, BLOSUM50, BLOSUM62,
// BLOSUM80) and gap costs in BLAST's terms (a gap of k residues costs
// existence + k * extension; SwScoring's first-residue cost is existence +
// extension); nullopt when BLAST has none.
std::optional<SwKarlinParams> sw_karlin_params(const std::string& matrix_name, int existence, int extension);

// The "existence/extension" pairs BLAST tabulates for a matrix (for the
// error message of a refused pair).
std::vector<std::string> sw_karlin_gap_pairs(const std::string& matrix_name);

// The name of the built-in matrix whose 20 x 20 standard-residue entries
// equal m's (so a matrix file holding BLOSUM62 gets BLOSUM62's statistics),
// or m's own name when none does.
std::string sw_statistics_name(const SwMatrix& m);

// Bits: (lambda S - ln K) / ln 2. E-value: K m n exp(-lambda S), with
// m n = search_space = query length x database residues.
double sw_bit_score(const SwKarlinParams& p, int64_t score);
double sw_evalue(const SwKarlinParams& p, int64_t score, double search_space);

}  // namespace warpdp
