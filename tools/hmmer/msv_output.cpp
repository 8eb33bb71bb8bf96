// gpu-msv's rows (msv_output.hpp).
#include "tools/hmmer/msv_output.hpp"

#include <cstdint>
#include <utility>

#include "core/hmmer/pipeline/candidate_columns.hpp"
#include "tools/hmmer/msv_stage.hpp"

namespace warpdp {

MsvRowWriter::MsvRowWriter(OutputFile& out, Format format, bool bias_on)
    : writer_(out, format, msv_columns()), bias_on_(bias_on) {}

void MsvRowWriter::write(const MsvModel& m, size_t model_index, const MsvRow& r, const std::string& target) {
    // Each value at its column's place in the schema.
    std::vector<Value> v(kMsvColumnNames.size(), Absent{});
    const auto set = [&](MsvColumn c, Value x) { v[static_cast<size_t>(c)] = std::move(x); };
    set(MsvColumn::model, m.hmm.name);
    if (!m.hmm.acc.empty()) set(MsvColumn::model_acc, m.hmm.acc);
    set(MsvColumn::target, target);
    set(MsvColumn::target_len, static_cast<int64_t>(r.length));
    if (r.scored) {
        set(MsvColumn::msv_bits, fixed(r.v.msv_bits, 6));
        set(MsvColumn::msv_pvalue, general(r.v.msv_p, 6));
    }
    if (bias_on_ && r.bias_scored) {
        set(MsvColumn::bias_bits, fixed(r.v.bias_bits, 6));
        set(MsvColumn::bias_pvalue, general(r.v.bias_p, 6));
    }
    set(MsvColumn::passed, int64_t{r.passed ? 1 : 0});
    set(MsvColumn::model_index, static_cast<int64_t>(model_index));
    set(MsvColumn::target_index, static_cast<int64_t>(r.target));
    writer_.write(v);
}

void write_msv_rows(OutputFile& out, Format format, bool bias_on, const std::vector<MsvModel>& models,
                    const MsvStage& stage, const std::vector<std::vector<std::string>>& names) {
    MsvRowWriter writer(out, format, bias_on);
    writer.header();
    for (size_t mi = 0; mi < models.size(); ++mi)
        for (size_t r = 0; r < stage.rows(mi).size(); ++r)
            writer.write(models[mi], mi, stage.rows(mi)[r], names[mi][r]);
}

}  // namespace warpdp
