// gpu-msv's rows: the columns of core/hmmer/pipeline/candidate_columns.hpp,
// as TSV or JSON Lines, the stream gpu-viterbi reads back.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/hmmer/msv/msv_model.hpp"
#include "core/hmmer/msv/msv_search.hpp"
#include "core/io/output_file.hpp"
#include "core/io/record_writer.hpp"

namespace warpdp {

class MsvStage;

class MsvRowWriter {
public:
    // bias_on: the bias filter ran (else its columns are absent).
    MsvRowWriter(OutputFile& out, Format format, bool bias_on);
    void header() { writer_.write_header(); }
    // Row r of model m, the model_index-th of its file; target: its name.
    void write(const MsvModel& m, size_t model_index, const MsvRow& r, const std::string& target);

private:
    RecordWriter writer_;
    bool bias_on_;
};

// The header, then every model's rows, models in file order, targets in
// database order (so the output never depends on device, threads or chunks).
// names[mi][r]: the target of stage.rows(mi)[r].
void write_msv_rows(OutputFile& out, Format format, bool bias_on, const std::vector<MsvModel>& models,
                    const MsvStage& stage, const std::vector<std::vector<std::string>>& names);

}  // namespace warpdp
