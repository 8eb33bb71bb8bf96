// gpu-hmmsearch's own last stage (docs/hmmer-filters.md §16.7): each model's
// Forward-filter survivors, as gpu-viterbi writes them in place, go through
// the post-filter stages of core/hmmer/domains; the hits kept by hmmsearch's
// rule are thresholded and written in hmmsearch's five formats.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/errors.hpp"
#include "core/hmmer/domains/dom_engine.hpp"
#include "core/hmmer/report/report_options.hpp"
#include "tools/hmmer/hmmsearch_main_output.hpp"
#include "tools/hmmer/hmmsearch_report_text.hpp"

namespace warpdp {

struct LastStageInput {
    std::string models;          // HMMER3 text file, every model in order
    std::string survivors_dir;   // <i>.fa: model i's survivors at their record numbers (i from 1)
    nlohmann::json filters;      // gpu-viterbi's --stats (targets, residues, per-model pass counts)
    ReportOptions report;
    MainOutputHeader header;     // the main output's header
    TableTail tail;              // the tables' closing lines
    std::string ali_out;         // -A's path as given (empty: none)
    std::string author;          // the alignment's #=GF AU line
    double start_seconds = 0;    // when the run began (steady clock), for the timing lines
    // Called as survivors are read and before each group's search: throws to stop the run.
    std::function<void()> stop_check;
};

// The five outputs' texts (those not asked for are left empty), and the
// engines' name and stage seconds (for WARPDP_TIMES; with several workers,
// the seconds are summed over their engines: thread-seconds, not wall).
struct LastStageTexts {
    std::string main, tbl, dom, ali, pfam;
    std::string engine;
    DomStageSeconds seconds;
};

// The engines of a last stage (docs/hmmer-filters.md §16.10): `workers`
// groups of models are searched at once, each worker on its own engine from
// `make` (called on the caller's thread, once a worker, before any model).
struct LastStageEngines {
    unsigned workers = 1;
    std::function<std::unique_ptr<DomEngine>()> make;
};

// Whether the last stage covers a search's options (hmmsearch's, made
// plain, each value after its option): empty when covered, else why not,
// for the one warning of a run that goes to hmmsearch instead
// (docs/hmmer-filters.md §16.7 lists what is covered).
std::string last_stage_refusal(const std::vector<std::string>& options);

// A model or target on which hmmsearch 3.3.2 aborts (exit 4, as
// gpu-hmmsearch's report of an aborted hmmsearch).
class LastStageStop : public Error {
public:
    using Error::Error;
    ExitCode exit_code() const noexcept override { return ExitCode::internal; }
};

// Throws LastStageStop for the first model without a consensus line, which
// hmmsearch aborts on before it searches it.
void refuse_models_without_consensus(const std::vector<Hmm>& models);

// The texts are those of the models searched one after another, in model
// order, whatever the workers (bar the timing lines of the main output); an
// error is the one of the first model that fails, as one worker gives it.
LastStageTexts run_last_stage(const LastStageInput& in, const std::vector<Hmm>& models,
                              const LastStageEngines& engines);

// Groups of consecutive models searched together: the index of each
// group's first model, then the number of models. A group holds about
// 1/(2 * workers) of all the work (`work`: last_stage_cells), so the
// workers balance, and at most about kLastStageGroupBytes of survivors (it
// holds them in memory), at least one model; a GPU gets several models'
// jobs in one launch (§16.10).
inline constexpr double kLastStageGroupBytes = 16.0 * (1 << 20);
std::vector<size_t> last_stage_groups(const std::vector<double>& survivor_bytes, const std::vector<double>& work,
                                      unsigned workers);

// The last stage's work per model, roughly: its survivor file in bytes
// (about its residues) times the model's length. For the device choice and
// the number of workers.
std::vector<double> last_stage_cells(const LastStageInput& in, const std::vector<Hmm>& models);

}  // namespace warpdp
