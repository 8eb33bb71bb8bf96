// gpu-nw-dist's stage of the run skeleton (docs/nw-dist.md): the reads with
// AmpliconNoise's input rules, SeqDist's table, and a row range of the
// distance matrix computed in chunks and written in row-major order.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/nw/nw_engine.hpp"
#include "core/nw/nw_metric.hpp"
#include "core/nw/nw_reads.hpp"
#include "core/nw/nw_rows.hpp"
#include "tools/common/tool_engines.hpp"
#include "tools/nw/nw_matrix_writer.hpp"

namespace warpdp {

// The reads of `path`. Each line cut at a letter foreign to the metric (as
// AmpliconNoise cuts it) is told to `warn`, the first ten one by one, then
// how many in all.
NwReads load_nw_reads(const std::string& path, const NwReadOptions& opt,
                      const std::function<void(const std::string&)>& warn);

// SeqDist's table: the --lookup file, else the file $SEQ_LOOKUP_FILE names
// (as SeqDist reads it), else Tran.dat. `note` hears which file the
// environment named.
SeqDistTable choose_seqdist_table(const std::string& lookup, const std::function<void(const std::string&)>& note);

using NwEngines = ToolEngines<std::unique_ptr<NwEngine>>;

// Each read's length, in input order.
std::vector<uint32_t> nw_read_lengths(const NwReads& reads);

// The rows --rows (`rows`) or --tile (`tile`) names, checked against the
// reads' count (UsageError); every row when both are empty.
RowRange nw_row_range(const std::string& rows, const std::string& tile, const std::vector<uint32_t>& lengths);

// The run's engine with the reads loaded: the started one, or under
// --device auto the CPU's when the GPUs cannot hold them (ToolEngines::cpu_for).
NwEngine& load_nw_engine(NwEngines& engines, const NwReads& reads, const NwCodedReads& coded);

// Pairs a chunk: --chunk-pairs (`chunk_pairs`) when given, else enough to
// keep every GPU busy between the stage's own steps (about 16M pairs a GPU,
// 128 MB of distances each), or 1M pairs on the CPU.
uint64_t nw_chunk_budget(uint64_t chunk_pairs, const NwEngines& engines);

// Row chunks of about `budget` pairs (at least one row each), in order.
std::vector<RowRange> nw_row_chunks(const RowRange& rows, uint64_t budget);

struct NwStageTally {
    uint64_t pairs = 0, cells = 0;
    double engine_seconds = 0;
};

// What a run reports: --stats's JSON and the summary line on stderr.
struct NwRunReport {
    std::string device, engine;
    NwMetric metric = NwMetric::ndist;
    unsigned threads = 0;
    uint64_t reads = 0;
    RowRange rows;
    NwStageTally tally;
    std::optional<uint64_t> within_max_dist;  // pairs written under --max-dist
    double seconds = 0;
};
nlohmann::ordered_json nw_stats(const NwRunReport& r);
std::string nw_summary_line(const NwRunReport& r);

// Computes `rows` with `engine` (reads loaded) in chunks of about `budget`
// pairs and writes them: the pairs of chunk k+1 are listed while the engine
// computes chunk k, and chunk k-1 is put in row-major order and written
// meanwhile. progress(pairs done) after each chunk.
NwStageTally compute_nw_rows(NwEngine& engine, const std::vector<uint32_t>& lengths, const RowRange& rows,
                             uint64_t budget, NwMatrixWriter& writer, const std::function<void(uint64_t)>& progress);

}  // namespace warpdp
