// gpu-viterbi's option checks and pipeline settings.
#include "tools/hmmer/viterbi_options.hpp"

#include <algorithm>

#include "core/base/errors.hpp"

namespace warpdp {

void check_viterbi_args(const ViterbiArgs& a, bool f1_given, bool f3_given) {
    if (!a.forward && f3_given) throw UsageError("--F3 goes with --forward");
    if (a.msv && !a.candidates.empty()) throw UsageError("--msv and --candidates are mutually exclusive");
    if (!a.msv && (f1_given || a.nobias))
        throw UsageError("--F1 and --nobias go with --msv (with --candidates, gpu-msv applied them)");
    if (a.candidates == "-" && a.db == "-") throw UsageError("--candidates and --db cannot both be stdin");
    if (a.hmm == "-" && (a.db == "-" || a.candidates == "-"))
        throw UsageError(std::string("--hmm and ") + (a.db == "-" ? "--db" : "--candidates") + " cannot both be stdin");
    check_at_most("--spread", a.spread, 1 << 20);
    check_at_most("--chunk-residues", a.chunk_residues, uint64_t{1} << 40);
    if ((a.spread > 0 || a.in_place) && a.survivors.empty() && a.model_survivors.empty())
        throw UsageError(std::string(a.in_place ? "--in-place" : "--spread") + " goes with --survivors or --model-survivors");
    if (a.spread > 0 && a.in_place) throw UsageError("--spread and --in-place exclude each other");
}

FilterSettings viterbi_filter_settings(const ViterbiArgs& a, const CommonOptions& common, const std::string& tool) {
    FilterSettings settings;
    settings.F1 = std::min(a.F1.value, 1.0);
    settings.F2 = std::min(a.F2.value, 1.0);
    settings.F3 = std::min(a.F3.value, 1.0);
    settings.inline_msv = a.msv;
    settings.nobias = a.nobias;
    settings.forward = a.forward;
    settings.all = a.all;
    settings.common = common;
    settings.chunk_residues = a.chunk_residues;
    settings.tool = tool;
    settings.db_path = a.db;
    settings.cand_name = a.candidates == "-" ? "<stdin>" : a.candidates;
    return settings;
}

}  // namespace warpdp
