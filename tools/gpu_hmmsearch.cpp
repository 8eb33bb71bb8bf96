// gpu-hmmsearch: hmmsearch with its MSV, bias, Viterbi and Forward filters
// run by gpu-viterbi (GPU when one is visible, else CPU). It takes
// hmmsearch's own command line and writes hmmsearch's outputs, equal but for
// a few header and timing lines (docs/hmmer-filters.md §16.7): the stages
// after the filters run in tools/hmmer/hmmsearch_last_stage, or in plain
// hmmsearch for what that does not cover (tools/hmmer/filtered_hmmsearch).
//   gpu-hmmsearch [hmmsearch options] MODELS.hmm TARGETS.fa
//   gpu-hmmsearch --help | --version     (-h: hmmsearch's help)
// --help lists the environment it reads (tools/hmmer/hmmsearch_setup); --cpu
// N bounds every thread it runs (tools/hmmer/hmmsearch_threads).
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "core/base/errors.hpp"
#include "core/base/trace.hpp"
#include "tools/common/child_process.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/stop_signal_watch.hpp"
#include "tools/common/temp_dir.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/hmmer/filtered_hmmsearch.hpp"
#include "tools/hmmer/hmmsearch_options.hpp"
#include "tools/hmmer/hmmsearch_setup.hpp"
#include "tools/hmmer/hmmsearch_stitch.hpp"
#include "tools/hmmer/hmmsearch_version.hpp"

using namespace warpdp;

namespace {

constexpr const char* kTool = "gpu-hmmsearch";

int run(int argc, char** argv) {
    trace_event("wrapper-start");
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (asks_for_own_help(args)) {
        std::cout << kGpuHmmsearchHelp;
        return 0;
    }
    const std::string hmmsearch = hmmsearch_program();
    if (asks_for_help(args)) exec_program({hmmsearch, "-h"});
    // hmmsearch has no --version, so the one every warpdp tool answers (and
    // that workflow managers call for their version reports) cannot clash.
    if (args.size() == 1 && args[0] == "--version") {
        std::cout << version_text(kTool) << hmmsearch_version_line(hmmsearch);
        return 0;
    }
    const HmmsearchCommand command = read_hmmsearch_command(args);
    FilteredHmmsearchSettings settings = hmmsearch_settings_from_environment();
    if (command.targets == "-") throw UsageError("targets must be a file (they are read twice)");
    refuse_clobbering(command);
    // Every output is refused now if it cannot be written, not after the search.
    for (const std::string* out :
         {&command.main_out, &command.tbl_out, &command.dom_out, &command.ali_out, &command.pfam_out})
        check_writable(*out);
    // The scratch directories of runs that were killed outright.
    for (const std::string& kept : remove_stale_temp_dirs("gpu-hmmsearch"))
        warn(kTool, "cannot remove the scratch directory of a run that has ended: " + kept);
    settings.filters = own_directory() + "/gpu-viterbi";
    const StopSignalWatch watch;
    int rc = 0;
    try {
        rc = run_filtered_hmmsearch(command, settings, watch);
    } catch (...) {
        // A call that a stop signal interrupted fails with EINTR: the stop is
        // what happened.
        watch.throw_if_stopped();
        throw;
    }
    // A run asked to stop never reports success, even if the signal came
    // after the last place that looks for it.
    watch.throw_if_stopped();
    return rc;
}

}  // namespace

int main(int argc, char** argv) { return run_tool(kTool, argc, argv, run); }
