// gpu-nw-dist's options as its main reads them, their checks, and the read,
// writer and table settings they give.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/nw/nw_metric.hpp"
#include "core/nw/nw_reads.hpp"
#include "tools/common/cli.hpp"
#include "tools/nw/nw_matrix_writer.hpp"

namespace warpdp {

struct NwArgs {
    std::string in, metric = "ndist", lookup, rows, tile, stats;
    bool ids = false, strict = false;
    double max_dist = -1;
    uint64_t chunk_pairs = 0, max_read_length = NwReadOptions{}.max_length;
};

// gpu-nw-dist's own options, positional argument, environment and formats,
// bound to `a`.
void add_nw_options(Cli& cli, NwArgs& a);

struct NwSettings {
    NwReadOptions reads;
    NwWriterOptions writer;
    SeqDistTable table;  // SeqDist's (choose_seqdist_table), else Tran.dat
};

// What `cli` parsed into `a`, checked before the input is read (UsageError:
// a value out of range, options that do not go together, an output on an
// input, a malformed --rows or --tile; their bounds wait for the reads), and
// the settings it gives. `say` hears which table file SEQ_LOOKUP_FILE named.
NwSettings check_nw_options(const Cli& cli, const NwArgs& a, const std::function<void(const std::string&)>& say);

}  // namespace warpdp
