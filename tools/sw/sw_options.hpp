// gpu-sw's options as its main reads them, their checks, and the scoring
// and search options they give.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/sw/sw_matrix.hpp"
#include "tools/common/cli.hpp"
#include "tools/sw/sw_matrix_choice.hpp"
#include "tools/sw/sw_output.hpp"
#include "tools/sw/sw_search.hpp"

namespace warpdp {

// gpu-sw --help's summary.
extern const char* const kSwSummary;

// gpu-sw's own options, as parsed.
struct SwArgs {
    std::string query, db, matrix = "BLOSUM62", stats;
    int64_t gap_open = 11, gap_extend = 1;  // BLAST's convention (SwGapCosts)
    uint64_t max_hits = 500, chunk_residues = uint64_t{1} << 30;
    int64_t min_score = 1;
    std::optional<double> max_evalue;  // --evalue
    bool no_evalue = false, cigar = false, score_only = false;
};

// The options' ranges and the combinations refused (UsageError), in the
// order the messages are checked.
void check_sw_args(const SwArgs& a, SwFormat format);

// gpu-sw's own options, positional arguments and formats, bound to `a`.
void add_sw_options(Cli& cli, SwArgs& a);

struct SwSettings {
    SwFormat format = SwFormat::tsv;
    SwMatrix matrix;
    SwGapCosts gaps;
    SwSearchOptions search;
};

// What `cli` parsed into `a`, checked in the order the messages are
// (check_sw_args, an output on an input, the matrix, the engines' scoring,
// BLAST's statistics unless --no-evalue), and the settings it gives. The
// scoring is sw_scoring(matrix, gaps), made where the matrix stays.
SwSettings check_sw_options(const Cli& cli, const SwArgs& a);

}  // namespace warpdp
