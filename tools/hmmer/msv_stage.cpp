// The MSV and bias filters of one chunk for every model (msv_stage.hpp).
#include "tools/hmmer/msv_stage.hpp"

#include <chrono>
#include <utility>

#include "core/base/trace.hpp"

namespace warpdp {

namespace {
using clock = std::chrono::steady_clock;
double since(clock::time_point a) { return std::chrono::duration<double>(clock::now() - a).count(); }
}  // namespace

MsvStage::MsvStage(std::vector<const MsvModel*> models, MsvSearchOptions opt)
    : models_(std::move(models)), opt_(opt), rows_(models_.size()), tally_(models_.size()) {
    for (const MsvModel* m : models_) {
        profiles_.push_back(&m->bytes);
        floors_.push_back(std::make_unique<MsvPassFloor>(*m, opt_.F1));
    }
}

MsvStage::ChunkTimes MsvStage::run(const SeqBatch& chunk, uint64_t number, MsvEngine& engine, const OnModel& on_model) {
    ChunkTimes t;
    auto w0 = clock::now();
    engine.load_targets(chunk);
    t.load_s = since(w0);
    trace_event("msv-loaded", number);
    w0 = clock::now();
    engine.score_each(profiles_, [&](size_t mi, std::span<const uint16_t> raw) {
        trace_event("msv-scored", number);
        const auto d0 = clock::now();
        const size_t first_new = rows_[mi].size();
        msv_decide(*models_[mi], chunk, raw, opt_, rows_[mi], tally_[mi], floors_[mi].get());
        if (on_model) on_model(mi, first_new);
        t.decide_s += since(d0);
        trace_event("msv-decided", number);
    });
    t.score_s = since(w0) - t.decide_s;
    return t;
}

}  // namespace warpdp
