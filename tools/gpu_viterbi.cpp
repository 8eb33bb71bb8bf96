// gpu-viterbi: HMMER 3.3.2's Viterbi filter, with hmmsearch's exact scores,
// P-values and pipeline decisions. Fed by gpu-msv's candidate stream it
// applies the pipeline rule (a candidate whose bias-corrected MSV P-value is
// already <= F2 skips the filter and passes); without one it runs the filter
// on every target ("Viterbi alone", null-model scores). With --msv it runs
// gpu-msv's MSV and bias filters itself first (one database read, one GPU
// start-up for the whole pipeline). With --forward the Viterbi-stage
// survivors also go through hmmsearch's Forward filter (F3), exactly.
// --survivors writes the passing targets as FASTA for `hmmsearch -Z <Z>`.
// gpu-hmmsearch runs it with its options (tools/hmmer/filtered_hmmsearch).
// The stages are tools/hmmer/filter_pipeline, the writer
// tools/hmmer/viterbi_output, the summary tools/hmmer/viterbi_summary.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/base/trace.hpp"
#include "core/hmmer/pipeline/candidate_stream.hpp"
#include "core/hmmer/pipeline/survivors_file.hpp"
#include "core/io/distinct_paths.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/device_choice.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/common/tool_outputs.hpp"
#include "tools/hmmer/amino_models.hpp"
#include "tools/hmmer/filter_pipeline.hpp"
#include "tools/hmmer/hmmer_costs.hpp"
#include "tools/hmmer/hmmer_real.hpp"
#include "tools/hmmer/model_candidates.hpp"
#include "tools/hmmer/viterbi_options.hpp"
#include "tools/hmmer/viterbi_output.hpp"
#include "tools/hmmer/viterbi_summary.hpp"

using namespace warpdp;
namespace po = boost::program_options;

namespace {

constexpr const char* kTool = "gpu-viterbi";

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-viterbi [options] MODELS.hmm TARGETS.fa  (or --hmm MODELS.hmm --db TARGETS.fa) "
                   "[--candidates FILE|-]",
            "HMMER 3.3.2 Viterbi filter and pipeline rule (hmmsearch-identical) on GPU or CPU.");
    ViterbiArgs a;
    cli.tool_options().add_options()
        ("hmm", po::value<std::string>(&a.hmm)->required(), "profile HMM file (the one gpu-msv used)")
        ("db", po::value<std::string>(&a.db)->required(), "protein FASTA/FASTQ (the one gpu-msv read)")
        ("candidates", po::value<std::string>(&a.candidates), "gpu-msv output (TSV or JSONL, plain or gzip; - for stdin)")
        ("F2", po::value<HmmerReal>(&a.F2)->default_value(a.F2, "0.001"), "Viterbi filter P-value threshold")
        ("msv", po::bool_switch(&a.msv), "run the MSV and bias filters here (as gpu-msv would) instead of reading --candidates")
        ("F1", po::value<HmmerReal>(&a.F1)->default_value(a.F1, "0.02"), "with --msv: MSV filter P-value threshold")
        ("nobias", po::bool_switch(&a.nobias), "with --msv: turn off the composition bias filter")
        ("forward", po::bool_switch(&a.forward),
         "also run hmmsearch's Forward filter on the Viterbi-stage passers (adds fwd_bits, fwd_pvalue, "
         "fwd_passed; the survivors are then the Forward passers)")
        ("F3", po::value<HmmerReal>(&a.F3)->default_value(a.F3, "1e-05"), "with --forward: Forward filter P-value threshold")
        ("all", po::bool_switch(&a.all), "a row for every candidate (every target without --candidates)")
        ("survivors", po::value<std::string>(&a.survivors), "write the passing targets (each once, database order) as FASTA")
        ("model-survivors", po::value<std::string>(&a.model_survivors),
         "also write each model's survivors, chunk by chunk, to DIR/<i>.fa (i: the model's position in the "
         "file, from 1), for a final hmmsearch per model that reads them as they come (FIFOs)")
        ("spread", po::value<size_t>(&a.spread)->default_value(0),
         "for a final hmmsearch: cut each model's survivors (with --model-survivors: in each chunk) into about N "
         "runs of equal expected work, each topped up to 1,000 records with empty ones (hmmsearch skips them), "
         "so its threads share the work; 0: off")
        ("in-place", po::bool_switch(&a.in_place),
         "for a final hmmsearch without -Z: write each survivor at its place in the database, an empty record "
         "standing for every other target, so that hmmsearch counts the targets as it reads them as plain "
         "hmmsearch does (and keeps the same hits, which size its name columns); excludes --spread")
        ("stats", po::value<std::string>(&a.stats), "also write the run summary as JSON to FILE")
        ("chunk-residues", po::value<uint64_t>(&a.chunk_residues)->default_value(0),
         "database residues held at once (0 = automatic)");
    cli.positional().add("hmm", 1).add("db", 1);
    if (!cli.parse(argc, argv)) return 0;
    const auto& common = cli.common();
    check_viterbi_args(a, !cli.vm()["F1"].defaulted(), !cli.vm()["F3"].defaulted());
    refuse_shared_paths({{"--hmm", a.hmm}, {"--db", a.db}, {"--candidates", a.candidates}},
                        {common.output_path(), {"--stats", a.stats}, {"--survivors", a.survivors}});
    ToolOutputs outputs(common.output, a.stats);
    std::unique_ptr<SurvivorsFile> survivors;
    const SurvivorsLayout layout{a.spread, a.in_place};
    if (!a.survivors.empty()) survivors = std::make_unique<SurvivorsFile>(outputs.add(a.survivors), layout);

    const auto models = load_amino_models<FilterModel>(a.hmm, kTool, common.quiet, ": like hmmsearch, no target passes");
    const FilterSettings settings = viterbi_filter_settings(a, common, kTool);
    std::vector<FilterCandidates> candidates(models.size());
    if (!a.candidates.empty()) {
        CandidateStream stream = read_candidates(a.candidates);
        if (stream.blank && !common.quiet)
            warn(kTool, settings.cand_name + " is empty: no candidates (gpu-msv's tsv starts with a header line even then)");
        candidates = candidates_per_model(stream, models, a.hmm, settings.cand_name);
    }
    uint64_t sum_m = 0;
    for (const auto& m : models) sum_m += static_cast<uint64_t>(m.msv.hmm.M);
    hide_unused_gpus(common.device, viterbi_seconds_on_one_gpu(a.db, sum_m, a.msv, !a.candidates.empty(),
                                                               candidate_cells(candidates, models)));
    std::unique_ptr<ModelSurvivorStreams> model_survivors;
    if (!a.model_survivors.empty())
        model_survivors = std::make_unique<ModelSurvivorStreams>(a.model_survivors, models.size(), layout);
    // The engines live until the end: their teardown comes after our stdout is closed.
    FilterPipeline filters(models, settings);
    const FilterRun res = filters.run(a.candidates.empty() ? nullptr : &candidates, survivors.get(), model_survivors.get());
    // Each model's final search (gpu-hmmsearch) finishes its last record only
    // at the end of its file: ended now, before the rows are written. These
    // files are gpu-hmmsearch's own, not outputs a user asked for.
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
