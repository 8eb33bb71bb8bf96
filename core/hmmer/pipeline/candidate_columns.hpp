// gpu-msv's columns, names and order: the one schema that gpu-msv's writer
// (tools/hmmer/msv_output) writes and gpu-viterbi's candidate stream
// (candidate_stream.hpp) reads back. model_index and target_index (places in
// the files, from 0) let gpu-viterbi tell apart models or targets that share
// a name, as hmmsearch does.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace warpdp {

enum class MsvColumn : size_t {
    model,
    model_acc,
    target,
    target_len,
    msv_bits,
    msv_pvalue,
    bias_bits,
    bias_pvalue,
    passed,
    model_index,
    target_index,
};

inline constexpr std::array<const char*, 11> kMsvColumnNames{
    "model",      "model_acc", "target",      "target_len",  "msv_bits",    "msv_pvalue",
    "bias_bits", "bias_pvalue", "passed",     "model_index", "target_index"};

inline constexpr const char* column_name(MsvColumn c) { return kMsvColumnNames[static_cast<size_t>(c)]; }

// The columns a candidate stream must have. model_index and target_index
// are optional (without them candidates are matched by name); the scores are
// not read back (gpu-viterbi recomputes them exactly).
inline constexpr std::array<MsvColumn, 5> kCandidateColumnsNeeded{
    MsvColumn::model, MsvColumn::target, MsvColumn::target_len, MsvColumn::bias_pvalue, MsvColumn::passed};

// The header gpu-msv writes, in order.
inline std::vector<std::string> msv_columns() { return {kMsvColumnNames.begin(), kMsvColumnNames.end()}; }

}  // namespace warpdp
