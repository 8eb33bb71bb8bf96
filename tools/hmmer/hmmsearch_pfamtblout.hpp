// hmmsearch's --pfamtblout: per query, the reported targets, then their
// reported domains sorted on their own (docs/hmmer-filters.md §16.6);
// table_tail() at the end.
#pragma once

#include <string>

#include "core/hmmer/report/hit_list.hpp"

namespace warpdp {

std::string pfamtblout_query(const QueryReport& q);

}  // namespace warpdp
