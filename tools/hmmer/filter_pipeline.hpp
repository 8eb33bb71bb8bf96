// hmmsearch's filter stages over a database read chunk by chunk, as
// gpu-viterbi runs them: MSV and bias (here, or decided by gpu-msv and read
// back as candidates), the Viterbi filter with the pipeline rule, and
// optionally the Forward filter; per model the rows of the targets that
// reached the Viterbi stage and the survivors for a final hmmsearch. Every
// decision is hmmsearch's (core/hmmer/msv/msv_model, vit_model, fwd_model); the
// engines (GPU when the device choice says so, CPU engines for the first
// chunks while CUDA starts) change only the time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/hmmer/fwd/fwd_profile.hpp"
#include "core/hmmer/hmm.hpp"
#include "core/hmmer/msv/msv_model.hpp"
#include "core/hmmer/pipeline/candidate_stream.hpp"
#include "core/hmmer/pipeline/overlong_targets.hpp"
#include "core/hmmer/vit/vit_model.hpp"
#include "tools/common/cli.hpp"
#include "tools/hmmer/hmmer_costs.hpp"

namespace warpdp {

class SurvivorsFile;
class ModelSurvivorStreams;

// Everything the filters derive from one model.
struct FilterModel {
    MsvModel msv;
    VitModel vit;
    FwdProfile fwd;
    explicit FilterModel(Hmm h) : msv(std::move(h)), vit(msv), fwd(build_fwd_profile(msv.prof)) {}
};

// One (model, target) that reached the Viterbi stage (or, alone, any target).
struct FilterRow {
    std::string name;
    uint64_t target = 0, length = 0;  // database record number (0-based), residues
    bool scored = false, skipped = false, passed = false;  // Viterbi filter run; skipped by the rule; stage passed
    float bits = 0;
    double pvalue = 1;
    bool fwd_scored = false, fwd_passed = false;  // with forward, for Viterbi-stage passers
    float fwd_bits = 0;
    double fwd_pvalue = 1;
};

struct FilterTally {
    uint64_t candidates = 0, skipped = 0, computed = 0, passed = 0, passed_fwd = 0;
    // With the MSV stage run here (--msv): its passers before and after the
    // bias filter, the counts of hmmsearch's statistics block.
    std::optional<uint64_t> passed_msv, passed_bias;
};

// Per model, gpu-msv's candidates in stream order; matched against the
// database in database order (gpu-msv writes targets in database order), by
// target_index where the stream has it, else by name (then a name held by
// several records goes to the first one not yet matched).
struct FilterCandidates {
    std::vector<Candidate> list;
    size_t next = 0;
};

struct FilterSettings {
    double F1 = 0.02, F2 = 1e-3, F3 = 1e-5;
    bool inline_msv = false;  // run MSV and bias here (else candidates, or the Viterbi filter alone)
    bool nobias = false;      // with inline_msv
    bool forward = false;     // the Forward filter after the Viterbi stage; survivors pass it
    bool all = false;         // keep a row for every candidate, not only the passers
    CommonOptions common;     // --device, --threads, --quiet, progress
    uint64_t chunk_residues = 0;  // 0: chunk_residues_for(sum of M)
    std::string tool;                 // warnings and progress lines
    std::string db_path, cand_name;   // error messages
};

struct FilterRun {
    std::vector<std::vector<FilterRow>> rows;  // per model, database order
    std::vector<FilterTally> tally;
    uint64_t targets = 0, residues = 0, cells = 0, fwd_cells = 0, cpu_chunks = 0;
    OverlongTargets overlong;
    double seconds = 0;
    // Waiting for the reader and the engines; the MSV, Viterbi and Forward
    // stages and the survivors (these overlap: their sum may exceed seconds).
    double read_wait_s = 0, engines_s = 0, msv_s = 0, vit_s = 0, fwd_s = 0, survivors_s = 0;
    double msv_decide_s = 0;  // the host's verdicts (bias filter included), summed over their threads
    std::string device, engine, fwd_engine;
};

class FilterPipeline {
public:
    FilterPipeline(const std::vector<FilterModel>& models, FilterSettings settings);
    // Frees the engines (a CUDA teardown takes a while: finish the output first).
    ~FilterPipeline();
    FilterPipeline(const FilterPipeline&) = delete;
    FilterPipeline& operator=(const FilterPipeline&) = delete;

    // One pass over settings.db_path. candidates: per model, or nullptr
    // (then, without inline_msv, the Viterbi filter runs on every target
    // against the null score). Survivors go to the sinks that are given.
    FilterRun run(std::vector<FilterCandidates>* candidates, SurvivorsFile* survivors,
                  ModelSurvivorStreams* model_survivors);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace warpdp
