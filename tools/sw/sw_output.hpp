// gpu-sw's outputs (docs/sw.md §8): TSV and JSON Lines with named columns,
// and BLAST's 12-column tabular layout (-outfmt 6, "m8") with its number
// formats, so that BLAST-6 readers take it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/io/output_file.hpp"
#include "core/io/record_writer.hpp"
#include "core/sw/sw_traceback.hpp"

namespace warpdp {

enum class SwFormat { tsv, jsonl, m8 };
SwFormat parse_sw_format(const std::string& name);  // throws UsageError

// BLAST's tabular texts (NCBI's CBlastTabularInfo): E-values below 1e-180
// are "0.0", below 0.0009 "%.2e", below 0.1 "%4.3f", below 1 "%3.2f",
// below 10 "%2.1f", else "%2.0f"; bit scores above 99999 "%5.3e", above
// 99.9 the whole part "%3ld" (truncated, not rounded), else "%4.1f" (a
// leading space below 10); percent identity "%.3f" of identities over
// columns (gaps included).
std::string blast_evalue_text(double evalue);
std::string blast_bits_text(double bits);
std::string blast_pident_text(uint64_t identities, uint64_t length);

struct SwHitRow {
    const std::string* query = nullptr;
    const std::string* target = nullptr;
    uint64_t qlen = 0, tlen = 0;
    int64_t score = 0;
    std::optional<double> bits, evalue;   // absent with --no-evalue
    const SwAlignment* alignment = nullptr;  // absent with --score-only
    SwColumnCounts counts;                  // of the alignment
};

// One row a hit, in the order given.
class SwWriter {
public:
    // with_alignment: the coordinate and column-count columns (not with
    // --score-only); cigar: a last "cigar" column.
    SwWriter(OutputFile& out, SwFormat format, bool with_alignment, bool cigar);
    void header();  // TSV's header line; nothing for the others
    void write(const SwHitRow& h);

private:
    OutputFile& out_;
    SwFormat format_;
    bool with_alignment_, cigar_;
    std::optional<RecordWriter> records_;
    std::string line_;
};

}  // namespace warpdp
