// gpu-msv's options as its main reads them, their checks, and the search
// options they give.
#pragma once

#include <cstdint>
#include <string>

#include "core/hmmer/msv/msv_search.hpp"
#include "core/io/seq_reader.hpp"
#include "tools/common/cli.hpp"
#include "tools/hmmer/hmmer_real.hpp"

namespace warpdp {

struct MsvArgs {
    std::string hmm, db, stats;
    HmmerReal F1{0.02};
    bool nobias = false, all = false;
    uint64_t chunk_residues = 0;
};

// gpu-msv's own options and positional arguments, bound to `a`.
void add_msv_options(Cli& cli, MsvArgs& a);

// Throws UsageError for a value out of range, both inputs on stdin, or an
// output on an input; else the search options. Any --F1 is taken as
// hmmsearch takes it (NaN passes all; above 1 is 1).
MsvSearchOptions check_msv_options(const MsvArgs& a, const CommonOptions& common);

// The database reader's options: chunks of --chunk-residues, else sized for
// the models' sum_m nodes in all.
SeqReaderOptions msv_reader_options(const MsvArgs& a, uint64_t sum_m, unsigned threads);

}  // namespace warpdp
