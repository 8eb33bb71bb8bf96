// The output formats of gpu-nw-dist, one writer for all (docs/nw-dist.md):
//  - ndist:  AmpliconNoise's text: the read count, the ids (with -i), then one
//            "%.8e" value per line, strict lower triangle in row-major order;
//  - tsv:    "#id_i<TAB>id_j<TAB>distance" then one pair per line;
//  - jsonl:  {"id_i":..,"id_j":..,"distance":..} per pair;
//  - phylip: lower-triangular PHYLIP (count, then per row the id and its values);
//  - binary: a 24-byte header (magic "WDPNWD1\0", u32 version 1, u32 metric,
//            u64 read count) then the lower triangle as little-endian float64.
// The header (count line, ids, magic, TSV column line) belongs to the slice
// that starts at row 0, so slices concatenate to the whole matrix. With a
// distance cut-off (tsv, jsonl) only pairs at or below it are written.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/io/output_file.hpp"
#include "core/nw/nw_metric.hpp"
#include "core/nw/nw_reads.hpp"

namespace warpdp {

enum class NwFormat { ndist, tsv, jsonl, phylip, binary };
NwFormat parse_nw_format(const std::string& name);  // throws UsageError
bool nw_format_is_sparse_capable(NwFormat f) noexcept;

struct NwWriterOptions {
    NwFormat format = NwFormat::ndist;
    NwMetric metric = NwMetric::ndist;
    bool ids = false;                   // ndist format: the -i id block
    std::optional<double> max_dist;     // tsv/jsonl only
};

// Throws UsageError for option combinations the writer cannot honour
// (--max-dist with a whole-matrix format). Tools call it before reading input.
void check_nw_writer_options(const NwWriterOptions& opt);

class NwMatrixWriter {
public:
    NwMatrixWriter(OutputFile& out, const NwReads& reads, NwWriterOptions opt);
    // Called once, before the first row, by the slice that starts at row 0.
    void header();
    // Rows [first, first + k) whose values (row-major, j < i) are in `values`.
    void rows(uint64_t first, uint64_t count, std::span<const double> values);
    uint64_t written_pairs() const noexcept { return written_; }

private:
    void flush();
    OutputFile& out_;
    const NwReads& reads_;
    NwWriterOptions opt_;
    std::string buf_;
    std::vector<std::string> json_ids_;  // jsonl: each id as a JSON string
    uint64_t written_ = 0;
};

// "%.8e" as C's printf writes it (NaN with its sign, as glibc prints it).
void append_sci8(std::string& s, double v);

}  // namespace warpdp
