// gpu-viterbi's rows (viterbi_output.hpp).
#include "tools/hmmer/viterbi_output.hpp"

#include <cstdint>

namespace warpdp {

void write_viterbi_rows(OutputFile& out, Format format, bool forward, const std::vector<FilterModel>& models,
                        const std::vector<std::vector<FilterRow>>& rows) {
    std::vector<std::string> columns = kViterbiColumns;
    if (forward) columns.insert(columns.end(), kForwardColumns.begin(), kForwardColumns.end());
    RecordWriter writer(out, format, columns);
    writer.write_header();
    for (size_t mi = 0; mi < models.size(); ++mi) {
        const Hmm& h = models[mi].msv.hmm;
        for (const FilterRow& r : rows[mi]) {
            // (Built value by value: GCC 12 takes an initializer list of
            // these variants for uninitialized use.)
            std::vector<Value> row;
            row.reserve(columns.size());
            row.emplace_back(h.name);
            row.push_back(h.acc.empty() ? Value{Absent{}} : Value{h.acc});
            row.emplace_back(r.name);
            row.emplace_back(static_cast<int64_t>(r.length));
            row.push_back(r.scored ? Value{fixed(r.bits, 6)} : Value{Absent{}});
            row.push_back(r.scored ? Value{general(r.pvalue, 6)} : Value{Absent{}});
            row.emplace_back(int64_t{r.skipped ? 1 : 0});
            row.emplace_back(int64_t{r.passed ? 1 : 0});
            if (forward) {
                row.push_back(r.fwd_scored ? Value{fixed(r.fwd_bits, 6)} : Value{Absent{}});
                row.push_back(r.fwd_scored ? Value{general(r.fwd_pvalue, 6)} : Value{Absent{}});
                row.push_back(int64_t{r.fwd_passed ? 1 : 0});
            }
            writer.write(row);
        }
    }
}

}  // namespace warpdp
