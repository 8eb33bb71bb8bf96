// gpu-viterbi: HMMER 3.3.2's Viterbi filter, with hmmsearch's exact scores,
// P-values and pipeline decisions. Fed by gpu-msv's candidate stream it
// applies the pipeline rule (a candidate whose bias-corrected MSV P-value is
// already <= F2 skips the filter and passes); without one it filters every
// target against the null score. --msv runs gpu-msv's filters first (one
// database read, one GPU start-up), --forward adds hmmsearch's Forward filter
// (F3), --survivors writes the passers as FASTA for `hmmsearch -Z <Z>`;
// gpu-hmmsearch runs it (tools/hmmer/filtered_hmmsearch). In tools/hmmer:
// the options viterbi_options, the stages filter_pipeline, the writer
// viterbi_output, the summary viterbi_summary.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/base/trace.hpp"
#include "core/hmmer/pipeline/survivors_file.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/device_choice.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/common/tool_outputs.hpp"
#include "tools/hmmer/amino_models.hpp"
#include "tools/hmmer/filter_pipeline.hpp"
#include "tools/hmmer/hmmer_costs.hpp"
#include "tools/hmmer/model_candidates.hpp"
#include "tools/hmmer/viterbi_options.hpp"
#include "tools/hmmer/viterbi_output.hpp"
#include "tools/hmmer/viterbi_summary.hpp"

using namespace warpdp;

namespace {

constexpr const char* kTool = "gpu-viterbi";

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-viterbi [options] MODELS.hmm TARGETS.fa  (or --hmm MODELS.hmm --db TARGETS.fa) "
                   "[--candidates FILE|-]",
            "HMMER 3.3.2 Viterbi filter and pipeline rule (hmmsearch-identical) on GPU or CPU.");
    ViterbiArgs a;
    add_viterbi_options(cli, a);
    if (!cli.parse(argc, argv)) return 0;
    const auto& common = cli.common();
    check_viterbi_options(cli, a);
    ToolOutputs outputs(common.output, a.stats);
    std::unique_ptr<SurvivorsFile> survivors;
    const SurvivorsLayout layout{a.spread, a.in_place};
    if (!a.survivors.empty()) survivors = std::make_unique<SurvivorsFile>(outputs.add(a.survivors), layout);

    const auto models = load_amino_models<FilterModel>(a.hmm, kTool, common.quiet, ": like hmmsearch, no target passes",
                                                      common.threads);
    FilterSettings settings = viterbi_filter_settings(a, common, kTool);
    auto candidates = load_model_candidates(a.candidates, models, a.hmm, settings.cand_name, kTool, common.quiet);
    uint64_t sum_m = 0;
    for (const auto& m : models) sum_m += static_cast<uint64_t>(m.msv.hmm.M);
    if (common.device == "auto" && a.msv && msv_filters_seconds_on_cpu(a.db, sum_m, common.threads) <= kGpuFiltersFromCpuSeconds)
        settings.common.device = "cpu";  // (the same results; no CUDA start-up to wait for)
    hide_unused_gpus(common.device, viterbi_seconds_on_one_gpu(a.db, sum_m, a.msv, !a.candidates.empty(),
                                                               candidate_cells(candidates, models)));
    std::unique_ptr<ModelSurvivorStreams> model_survivors;
    if (!a.model_survivors.empty())
        model_survivors = std::make_unique<ModelSurvivorStreams>(a.model_survivors, models.size(), layout);
    // The engines live until the end: their teardown comes after our stdout is closed.
    FilterPipeline filters(models, settings);
    const FilterRun res = filters.run(a.candidates.empty() ? nullptr : &candidates, survivors.get(), model_survivors.get());
    // gpu-hmmsearch's final searches (its own files, not a user's) end their
    // last record only at end of file: ended now, before the rows are written.
    if (model_survivors) model_survivors->commit(res.targets);
    if (survivors) survivors->finish(res.targets);
    if (!common.quiet) {
        if (res.overlong.count()) warn(kTool, res.overlong.warning(a.db));
        std::fputs(viterbi_summary(res, models, a.forward).c_str(), stderr);
    }
    write_viterbi_rows(outputs.out(), parse_format(common.format), a.forward, models, res.rows);
    outputs.commit(viterbi_stats(res, models, a.forward, settings.F3, common.threads));
    trace_event("stdout-closed");
    finish_stdout();  // a pipeline waiting on our stdout goes on while the engines are freed
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return run_tool(kTool, argc, argv, run); }
