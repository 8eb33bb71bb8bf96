// Reads for gpu-nw-dist, taken from a FASTA file by AmpliconNoise's own
// rules (verified on Debian's NDist/SeqDist 1.29; docs/nw-dist.md):
//  - the input is cut into "lines" as fgets with a 65,536-byte buffer does
//    (a longer line continues as a new piece);
//  - a piece starting with '>' starts a record; its id is the text after
//    '>' up to the first space or newline;
//  - from every other piece, characters are kept from its start while they
//    are in the metric's alphabet; the first other character ends the piece.
// Compat mode applies these rules and reports each cut piece; strict mode
// rejects a piece with a foreign character instead. Trailing white space
// (space, tab, CR) ends a line silently in both modes; a CR with more text
// after it on its line (old Mac line ends) is an InputError in both.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/nw/nw_metric.hpp"

namespace warpdp {

struct NwReads {
    std::vector<std::string> ids;
    std::string letters;             // upper-case, all reads concatenated
    std::vector<uint64_t> offsets;   // size() + 1 entries
    size_t size() const noexcept { return ids.size(); }
    uint32_t length(size_t i) const noexcept { return static_cast<uint32_t>(offsets[i + 1] - offsets[i]); }
    const char* data(size_t i) const noexcept { return letters.data() + offsets[i]; }
    std::string_view read(size_t i) const noexcept { return {data(i), length(i)}; }
    void add(std::string id, std::string_view seq);
};

struct NwReadOptions {
    NwMetric metric = NwMetric::ndist;
    bool strict = false;
    uint32_t max_length = 1u << 20;  // longer reads are an InputError
};

// Called in compat mode for every piece that was cut at a foreign character.
using NwCutReport = std::function<void(uint64_t line, const std::string& record, char foreign)>;

// Throws InputError (file, line) for: no leading '>', no records, a foreign
// character in strict mode, a CR inside a line, a read over max_length,
// unreadable or truncated (compressed) input.
NwReads read_nw_reads(const std::string& path, const NwReadOptions& opt, const NwCutReport& on_cut);

}  // namespace warpdp
