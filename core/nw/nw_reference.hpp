// Scalar reference forms of the AmpliconNoise distances, written the way
// NDist and SeqDist compute them: a full score matrix and a move matrix,
// a traceback into alignment columns, then the distance from the columns.
// O(la*lb) memory: for tests and small inputs only. Reads are upper-case
// letters as read_nw_reads stores them.
#pragma once

#include <string_view>

#include "core/nw/nw_metric.hpp"

namespace warpdp {

// NDist's distance between A (the later read, rows) and B (columns).
// `score`, when given, receives the NW score F(la, lb).
double ndist_reference(std::string_view a, std::string_view b, double* score = nullptr);
// SeqDist's distance (NaN for two empty reads, as 0/0).
double seqdist_reference(std::string_view a, std::string_view b, const SeqDistTable& table);

// The distance NDist derives from alignment columns (row strings of equal
// length, '-' = gap), exposed for the brute-force test.
double ndist_columns_distance(std::string_view row_a, std::string_view row_b);

}  // namespace warpdp
