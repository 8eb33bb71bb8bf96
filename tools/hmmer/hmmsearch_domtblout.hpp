// hmmsearch's --domtblout: one line per reported domain of each reported
// target, the column header before the first query's lines, table_tail() at
// the end (docs/hmmer-filters.md §16.6).
#pragma once

#include <string>

#include "core/hmmer/report/hit_list.hpp"

namespace warpdp {

std::string domtblout_query(const QueryReport& q, bool show_header);

}  // namespace warpdp
