// gpu-hmmsearch's search: hmmsearch with its MSV, bias, Viterbi and Forward
// filters run by gpu-viterbi, then hmmsearch itself on the survivors, one
// run per model, and the runs' outputs stitched as one run over all models
// would have written them (tools/hmmer/hmmsearch_stitch).
//
// Every program it runs is a ChildProcess, watched with the caller's
// StopSignalWatch: the first failure (the filters, hmmsearch's check of the
// options, a final run) ends the search with that program's reason and exit
// code, and the others are stopped; a stop signal does the same, and the
// scratch directory goes in every case.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace warpdp {

struct HmmsearchCommand;
class StopSignalWatch;

// What the environment sets (gpu-hmmsearch reads it; README lists it).
struct FilteredHmmsearchSettings {
    std::string hmmsearch = "hmmsearch";  // the program, looked up in PATH unless it holds a '/'
    std::string filters;                  // gpu-viterbi's path
    std::string device = "auto";          // the filters' --device
    std::string threads = "0";            // the filters' --threads
    std::string spread;                   // gpu-viterbi --spread; empty: two runs per core
    std::optional<uint64_t> final_jobs;   // concurrent final runs; none: one per model, at most one per core
    int final_niceness = 10;              // added to final runs that search while the filters run
    bool forward = true;                  // the Forward filter among the filters (else hmmsearch's)
    bool times = false;                   // the stages' wall times on stderr
    // The stages after the filters in warpdp (docs/hmmer-filters.md §16.7); false:
    // hmmsearch runs them on the survivors, as before.
    bool own_last_stage = true;
};

// Runs the search and delivers the user's outputs (all of them, or none:
// every run writes scratch files); returns 0. Model files the filters cannot
// read (HMMER2, hmmpress'd, DNA or RNA) get plain hmmsearch, with a warning,
// and so do the options that make the filters useless (plain_only); a
// missing, empty or garbage model file is refused. Throws UsageError,
// InputError, ResourceError, ChildFailure, StopSignal, BrokenPipe.
int run_filtered_hmmsearch(const HmmsearchCommand& command, const FilteredHmmsearchSettings& settings,
                           const StopSignalWatch& watch);

}  // namespace warpdp
