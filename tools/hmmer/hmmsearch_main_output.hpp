// hmmsearch's main output (-o, else stdout): the header, then per query the
// "Query:" block, the table of sequence scores, the domain annotation with
// its alignments, the pipeline statistics and "//"; "[ok]" at the end
// (docs/hmmer-filters.md §16.6). Each function returns text; the tool writes
// it through OutputFile.
#pragma once

#include <optional>
#include <string>

#include "core/hmmer/report/hit_list.hpp"
#include "core/hmmer/report/report_options.hpp"

namespace warpdp {

struct MainOutputHeader {
    // The banner: "# PROGRAM :: search profile(s) against a sequence
    // database", then each of `banner_lines` after "# ".
    std::string program = "gpu-hmmsearch";
    std::vector<std::string> banner_lines;
    std::string hmm_file, seq_file;
    // The outputs as given (empty: not asked for).
    std::string main_out, ali_out, tbl_out, dom_out, pfam_out;
    std::optional<std::string> tformat;
    std::optional<int> cpu;
};

std::string main_output_header(const MainOutputHeader& h, const ReportOptions& o);

// The run's times for the statistics block's last two lines.
struct SearchTimes {
    double user = 0, sys = 0, elapsed = 0;  // seconds
};

// One query, from "Query:" to "//" and, with -A, the line saying where the
// alignment went (`ali_out`; empty: no -A). Without `times` the two timing
// lines are left out.
std::string main_output_query(const QueryReport& q, const ReportOptions& o, const std::optional<SearchTimes>& times,
                              const std::string& ali_out);

inline std::string main_output_end() { return "[ok]\n"; }

}  // namespace warpdp
