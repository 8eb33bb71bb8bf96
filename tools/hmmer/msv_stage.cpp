// The MSV and bias filters of one chunk for every model (msv_stage.hpp).
#include "tools/hmmer/msv_stage.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <future>
#include <mutex>
#include <utility>

#include "core/base/trace.hpp"
#include "core/io/seq_reader.hpp"
#include "tools/common/progress.hpp"
#include "tools/hmmer/hmmer_costs.hpp"

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
    // Each model's verdicts on a thread of their own beside the engine's
    // scoring of the next models, `at_once` models sharing opt_.threads: on
    // Pfam-sized model sets a GPU scored faster than one host thread decided.
    const size_t at_once = std::clamp<size_t>(models_.size(), 1, std::max(1u, opt_.threads));
    MsvSearchOptions one = opt_;
    one.threads = std::max(1u, opt_.threads / static_cast<unsigned>(at_once));
    std::mutex mu;
    std::deque<std::future<void>> deciding;  // (a future's destructor waits for its task)
    engine.score_each(profiles_, [&](size_t mi, std::span<const uint16_t> raw) {
        trace_event("msv-scored", number);
        if (deciding.size() >= at_once) {
            deciding.front().get();
            deciding.pop_front();
        }
        std::vector<uint16_t> copy(raw.begin(), raw.end());
        deciding.push_back(std::async(std::launch::async, [&, mi, scores = std::move(copy)] {
            const auto d0 = clock::now();
            const size_t first_new = rows_[mi].size();
            msv_decide(*models_[mi], chunk, scores, one, rows_[mi], tally_[mi], floors_[mi].get());
            if (on_model) on_model(mi, first_new);
            const std::lock_guard<std::mutex> lock(mu);
            t.decide_s += since(d0);
            trace_event("msv-decided", number);
        }));
    });
    for (auto& f : deciding) f.get();
    t.score_s = since(w0);
    return t;
}

MsvRun run_msv_stage(SeqReader& reader, MsvEngines& engines, MsvStage& stage, uint64_t sum_m, unsigned threads,
                     Progress& progress) {
    MsvRun run;
    run.row_names.resize(stage.models());
    const auto t0 = clock::now();
    SeqBatch chunk;
    for (uint64_t number = 0;; ++number) {
        auto w0 = clock::now();
        if (!reader.next(chunk)) break;
        run.read_wait_s += since(w0);
        w0 = clock::now();
        MsvEngine& e = *engines.for_chunk(cpu_finishes_quickly(sum_m * chunk.total_residues(), threads));
        run.load_s += since(w0);
        const auto times = stage.run(chunk, number, e, [&](size_t mi, size_t first_new) {
            const auto& rows = stage.rows(mi);
            for (size_t r = first_new; r < rows.size(); ++r)
                run.row_names[mi].push_back(chunk.names[static_cast<size_t>(rows[r].target - chunk.first_index)]);
        });
        run.load_s += times.load_s;
        run.decide_s += times.decide_s;
        run.engine_s += times.score_s;
        run.cells += sum_m * chunk.total_residues();
        run.residues += chunk.total_residues();
        run.targets += chunk.size();
        run.overlong.add(chunk);
        progress.update(run.targets, residues_progress(run.residues));
    }
    progress.finish();
    run.seconds = since(t0);
    run.device = engines.device();
    if (auto* ran = engines.ran()) run.engine = (*ran)->name();
    run.cpu_chunks = engines.cpu_chunks_while_starting();
    return run;
}

std::string residues_progress(uint64_t residues) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g M residues", static_cast<double>(residues) / 1e6);
    return text;
}

}  // namespace warpdp
