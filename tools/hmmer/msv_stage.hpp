// The MSV and bias filters of one chunk of targets, for every model: the one
// place where gpu-msv and gpu-viterbi --msv load a chunk into an MSV engine,
// have it score each model and decide the targets with hmmsearch's
// arithmetic (msv_decide). The engine scores the next models while the host
// decides the last one (MsvEngine::score_each), so deciding costs the engine
// no time on a GPU.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/hmmer/msv/msv_engine.hpp"
#include "core/hmmer/msv/msv_model.hpp"
#include "core/hmmer/msv/msv_pass_floor.hpp"
#include "core/hmmer/msv/msv_search.hpp"
#include "core/hmmer/pipeline/overlong_targets.hpp"
#include "core/io/seq_batch.hpp"
#include "tools/common/tool_engines.hpp"

namespace warpdp {

class Progress;
class SeqReader;

using MsvEngines = ToolEngines<std::unique_ptr<MsvEngine>>;

class MsvStage {
public:
    // Where one chunk's time went: loading it into the engine, the scoring
    // with the decisions beside it (wall), and the decisions (summed over
    // the threads that made them).
    struct ChunkTimes {
        double load_s = 0, score_s = 0, decide_s = 0;
    };
    // Called once model mi's rows of the chunk are decided: they are
    // rows(mi)[first_new...]. Calls for different models may run at once,
    // on other threads; one model's never do.
    using OnModel = std::function<void(size_t mi, size_t first_new)>;

    // models must outlive the stage.
    MsvStage(std::vector<const MsvModel*> models, MsvSearchOptions opt);

    // Loads `chunk` into `engine`, scores it with every model and appends
    // each model's rows (survivors, or every target with opt.all) to rows(mi).
    // number: the chunk's place in the run, for WARPDP_TRACE.
    ChunkTimes run(const SeqBatch& chunk, uint64_t number, MsvEngine& engine, const OnModel& on_model = {});

    std::vector<MsvRow>& rows(size_t mi) { return rows_[mi]; }
    const std::vector<MsvRow>& rows(size_t mi) const { return rows_[mi]; }
    const MsvModelTally& tally(size_t mi) const { return tally_[mi]; }
    size_t models() const noexcept { return models_.size(); }

private:
    std::vector<const MsvModel*> models_;
    MsvSearchOptions opt_;
    std::vector<const MsvByteProfile*> profiles_;
    std::vector<std::unique_ptr<MsvPassFloor>> floors_;  // per model, for opt_.F1
    std::vector<std::vector<MsvRow>> rows_;
    std::vector<MsvModelTally> tally_;
};

// gpu-msv's pass over the database: every chunk of `reader` through the
// stage on the engines `engines` gives it; what the summary reports.
struct MsvRun {
    // Per model, the name of each of the stage's rows: only the names of
    // targets that make a row are kept (10^8 targets would otherwise hold
    // every name until the end).
    std::vector<std::vector<std::string>> row_names;
    uint64_t targets = 0, residues = 0;
    OverlongTargets overlong;
    // Cells and engine time count every chunk, whichever engines took it
    // (the CPU's while CUDA starts, too), so a run never reports 0. Wall time by
    // stage: waiting for the reader, loading chunks into the engines
    // (waiting for their start included), scoring, the host's decisions.
    uint64_t cells = 0;
    double seconds = 0, read_wait_s = 0, load_s = 0, engine_s = 0, decide_s = 0;
    std::string device, engine;  // where it ran, and the engines' name
    uint64_t cpu_chunks = 0;     // chunks on the CPU while CUDA started
};

// sum_m: the models' nodes in all (the cost of a chunk, for the CPU while
// CUDA starts); threads: the CPU engines'.
MsvRun run_msv_stage(SeqReader& reader, MsvEngines& engines, MsvStage& stage, uint64_t sum_m, unsigned threads,
                     Progress& progress);

// A progress line's detail for a pass over a protein database ("12.3 M residues").
std::string residues_progress(uint64_t residues);

}  // namespace warpdp
