// gpu-viterbi's rows: its columns (the Forward ones with --forward), as TSV
// or JSON Lines, one row per (model, target) that reached the Viterbi stage.
#pragma once

#include <string>
#include <vector>

#include "core/io/output_file.hpp"
#include "core/io/record_writer.hpp"
#include "tools/hmmer/filter_pipeline.hpp"

namespace warpdp {

inline const std::vector<std::string> kViterbiColumns{"model",    "model_acc",  "target",  "target_len",
                                                      "vit_bits", "vit_pvalue", "skipped", "passed"};
inline const std::vector<std::string> kForwardColumns{"fwd_bits", "fwd_pvalue", "fwd_passed"};

// The header, then every model's rows (rows[mi]), models in file order.
void write_viterbi_rows(OutputFile& out, Format format, bool forward, const std::vector<FilterModel>& models,
                        const std::vector<std::vector<FilterRow>>& rows);

}  // namespace warpdp
