// gpu-viterbi's run summary (viterbi_summary.hpp).
#include "tools/hmmer/viterbi_summary.hpp"

#include <cstdio>

namespace warpdp {

nlohmann::ordered_json viterbi_stats(const FilterRun& res, const std::vector<FilterModel>& models, bool forward,
                                     double F3, unsigned threads) {
    nlohmann::ordered_json s;
    s["tool"] = "gpu-viterbi";
    s["device"] = res.device;
    s["engine"] = res.engine;
    s["threads"] = threads;
    s["chunks_on_cpu_while_starting"] = res.cpu_chunks;
    s["Z"] = res.targets;
    s["targets_over_100k"] = res.overlong.count();
    s["residues"] = res.residues;
    s["seconds"] = res.seconds;
    s["stage_seconds"] = {{"read_wait", res.read_wait_s}, {"engines", res.engines_s}, {"msv", res.msv_s},
                          {"msv_decide", res.msv_decide_s}, {"viterbi", res.vit_s}, {"forward", res.fwd_s},
                          {"survivors", res.survivors_s}};
    s["cells"] = res.cells;
    s["forward"] = forward;
    if (forward) {
        s["F3"] = F3;
        s["forward_cells"] = res.fwd_cells;
        s["forward_engine"] = res.fwd_engine;
    }
    s["models"] = nlohmann::ordered_json::array();
    for (size_t mi = 0; mi < models.size(); ++mi) {
        const FilterTally& t = res.tally[mi];
        s["models"].push_back({{"model", models[mi].msv.hmm.name}, {"M", models[mi].msv.hmm.M},
                               {"candidates", t.candidates}, {"skipped", t.skipped},
                               {"computed", t.computed}, {"passed_vit", t.passed}});
        if (t.passed_msv) s["models"].back()["passed_msv"] = *t.passed_msv;
        if (t.passed_bias) s["models"].back()["passed_bias"] = *t.passed_bias;
        if (forward) s["models"].back()["passed_fwd"] = t.passed_fwd;
    }
    return s;
}

std::string viterbi_summary(const FilterRun& res, const std::vector<FilterModel>& models, bool forward) {
    std::string text;
    char buf[512];
    for (size_t mi = 0; mi < models.size(); ++mi) {
        const FilterTally& t = res.tally[mi];
        std::snprintf(buf, sizeof buf, " (M=%d): candidates %llu, skipped (MSV P <= F2) %llu, passed Vit %llu",
                      models[mi].msv.hmm.M, static_cast<unsigned long long>(t.candidates),
                      static_cast<unsigned long long>(t.skipped), static_cast<unsigned long long>(t.passed));
        text += "gpu-viterbi: " + models[mi].msv.hmm.name + buf;
        if (forward) text += ", passed Fwd " + std::to_string(t.passed_fwd);
        text += '\n';
    }
    std::snprintf(buf, sizeof buf, "gpu-viterbi: Z = %llu targets, %.3f s, %llu Viterbi cells\n",
                  static_cast<unsigned long long>(res.targets), res.seconds, static_cast<unsigned long long>(res.cells));
    return text + buf;
}

}  // namespace warpdp
