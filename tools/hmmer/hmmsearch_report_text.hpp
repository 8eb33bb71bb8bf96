// What hmmsearch's five output writers share: printf-style appending, the
// names shown and the widths of name columns, E-values, and the closing block
// of the three tables (docs/hmmer-filters.md §16.6).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "core/hmmer/domains/dom_hit.hpp"
#include "core/hmmer/report/hit_list.hpp"

namespace warpdp {

// Appends printf's rendering of `fmt` (C's formats are what hmmsearch's
// columns are defined by).
[[gnu::format(printf, 2, 3)]] void appendf(std::string& out, const char* fmt, ...);

// The widest name, accession, or (with --acc) accession-else-name over every
// hit in the list, reported or not.
int max_name_length(const std::vector<DomHit>& hits);
int max_acc_length(const std::vector<DomHit>& hits);
int max_shown_length(const std::vector<DomHit>& hits);

// A score in nats as the outputs print it, in bits (HMMER's 1/ln 2).
inline double nats_to_bits(float nats) { return 1.44269504088896340736 * nats; }

// The lines that end each table file: hmmsearch's program, version, files,
// command line, working directory and date.
struct TableTail {
    std::string program = "gpu-hmmsearch";
    std::string version;        // "# Version:" value
    std::string query_file, target_file;
    std::string option_settings;  // the command line
    std::string current_dir;
    std::string date;             // as ctime() writes it, without its newline
};
std::string table_tail(const TableTail& t);

}  // namespace warpdp
