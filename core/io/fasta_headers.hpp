// A FASTA file's records counted without parsing them: the lines that start
// with '>', as `grep -c '^>'` counts them, after gzip if the file is
// compressed. A search that must give hmmsearch the number of targets (-Z)
// before its filters have read them all counts them so, beside the filters,
// and checks the count against the filters' own when they end.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace warpdp {

// True when the file's first byte (after gzip) is '>'. False when it cannot
// be read.
bool starts_with_fasta_header(const std::string& path);

// The lines that start with '>'. `between_reads` runs after each read of the
// file (a caller that must stay responsive throws from it to stop). Counting
// ends at a read error: the parser that reads the file for its records
// reports that error, with its line.
uint64_t count_fasta_headers(const std::string& path, const std::function<void()>& between_reads = {});

}  // namespace warpdp
