// hmmsearch's -A: per query, a Stockholm alignment of the included domains
// of the included targets, rebuilt from their alignment displays
// (docs/hmmer-filters.md §16.6). One block of 200 columns at a time, or
// the whole width in one block with --notextw.
#pragma once

#include <string>

#include "core/hmmer/report/hit_list.hpp"
#include "core/hmmer/report/report_options.hpp"

namespace warpdp {

// The alignment's text; empty when no domain is included (hmmsearch then
// writes nothing for the query). `author` is the #=GF AU line's text.
std::string stockholm_alignment(const QueryReport& q, const ReportOptions& o, const std::string& author);

}  // namespace warpdp
