// gpu-msv's run summary (msv_summary.hpp).
#include "tools/hmmer/msv_summary.hpp"

#include <cstdio>

namespace warpdp {

nlohmann::ordered_json msv_stats(const MsvRun& run, const std::vector<MsvModel>& models, const MsvStage& stage,
                                 unsigned threads) {
    nlohmann::ordered_json s;
    s["tool"] = "gpu-msv";
    s["device"] = run.device;
    s["engine"] = run.engine;
    s["threads"] = threads;
    s["chunks_on_cpu_while_starting"] = run.cpu_chunks;
    s["targets"] = run.targets;
    s["targets_over_100k"] = run.overlong.count();
    s["residues"] = run.residues;
    s["seconds"] = run.seconds;
    s["engine_seconds"] = run.engine_s;
    s["stage_seconds"] = {{"read_wait", run.read_wait_s}, {"load", run.load_s}, {"score", run.engine_s},
                          {"decide", run.decide_s}};
    s["cells"] = run.cells;
    s["cells_per_second"] = run.engine_s > 0 ? static_cast<double>(run.cells) / run.engine_s : 0.0;
    s["models"] = nlohmann::ordered_json::array();
    for (size_t mi = 0; mi < models.size(); ++mi)
        s["models"].push_back({{"model", models[mi].hmm.name}, {"M", models[mi].bytes.M},
                               {"passed_msv", stage.tally(mi).passed_msv},
                               {"passed_bias", stage.tally(mi).passed_bias}});
    return s;
}

std::string msv_summary(const MsvRun& run, const std::vector<MsvModel>& models, const MsvStage& stage) {
    std::string text;
    char buf[1024];
    for (size_t mi = 0; mi < models.size(); ++mi) {
        std::snprintf(buf, sizeof buf, " (M=%d): targets %llu, residues %llu, passed MSV %llu, passed bias %llu\n",
                      models[mi].bytes.M, static_cast<unsigned long long>(run.targets),
                      static_cast<unsigned long long>(run.residues),
                      static_cast<unsigned long long>(stage.tally(mi).passed_msv),
                      static_cast<unsigned long long>(stage.tally(mi).passed_bias));
        text += "gpu-msv: " + models[mi].hmm.name + buf;
    }
    std::snprintf(buf, sizeof buf, "), %.3f s, %.2f GCUPS (%llu cells in %.3f engine s); "
                  "read wait %.3f s, load %.3f s, decide %.3f s\n",
                  run.seconds,
                  run.engine_s > 0 ? static_cast<double>(run.cells) / run.engine_s / 1e9 : 0.0,
                  static_cast<unsigned long long>(run.cells), run.engine_s, run.read_wait_s, run.load_s, run.decide_s);
    return text + "gpu-msv: device " + run.device + " (" + run.engine + buf;
}

}  // namespace warpdp
