// gpu-msv: HMMER 3.3.2's MSV (SSV fast path) and bias filters for profile
// HMM(s) against a protein database, with hmmsearch's exact scores, P-values
// and decisions, on a GPU or the CPU. Its TSV/JSONL rows are the candidate
// stream gpu-viterbi reads. The options are tools/hmmer/msv_options, the stage
// tools/hmmer/msv_stage, the writer tools/hmmer/msv_output, the summary
// tools/hmmer/msv_summary.
#include <cstdio>
#include <string>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/hmmer/msv/msv_cpu.hpp"
#include "core/io/seq_reader.hpp"
#include "kernels/msv/msv_cuda.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/progress.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/common/tool_outputs.hpp"
#include "tools/hmmer/amino_models.hpp"
#include "tools/hmmer/hmmer_costs.hpp"
#include "tools/hmmer/msv_options.hpp"
#include "tools/hmmer/msv_output.hpp"
#include "tools/hmmer/msv_stage.hpp"
#include "tools/hmmer/msv_summary.hpp"

using namespace warpdp;

namespace {

constexpr const char* kTool = "gpu-msv";

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-msv [options] MODELS.hmm TARGETS.fa  (or --hmm MODELS.hmm --db TARGETS.fa)",
            "HMMER 3.3.2 MSV + bias filter (hmmsearch-identical scores and decisions) on GPU or CPU.");
    MsvArgs a;
    add_msv_options(cli, a);
    if (!cli.parse(argc, argv)) return 0;
    const auto& common = cli.common();
    const MsvSearchOptions opt = check_msv_options(a, common);
    ToolOutputs outputs(common.output, a.stats);

    const auto models = load_amino_models<MsvModel>(
        a.hmm, kTool, common.quiet, " (not calibrated): like hmmsearch, every P-value is 1 and no target passes",
        common.threads);
    uint64_t sum_m = 0;
    for (const auto& m : models) sum_m += static_cast<uint64_t>(m.bytes.M);
    hide_unused_gpus(common.device, msv_seconds_on_one_gpu(a.db, sum_m));
    const SeqReaderOptions ropt = msv_reader_options(a, sum_m, common.threads);
    SeqReader reader(a.db, Alphabet::amino(), ropt);  // parses the first chunk while the engines start
    MsvEngines engines(kTool, common, [threads = common.threads, residues = ropt.batch_residues](const DeviceChoice& d) {
        auto e = d.cuda ? make_msv_cuda_engine(d.gpus) : make_msv_cpu_engine(threads);
        e->expect_chunk_residues(residues);
        return e;
    });
    std::vector<const MsvModel*> model_ptrs;
    for (const auto& m : models) model_ptrs.push_back(&m);
    MsvStage stage(model_ptrs, opt);
    Progress progress(kTool, common, "targets");
    const MsvRun run = run_msv_stage(reader, engines, stage, sum_m, common.threads, progress);
    if (run.targets == 0) throw InputError(a.db, 0, "no sequences in the database");

    if (!common.quiet) {
        if (run.overlong.count()) warn(kTool, run.overlong.warning(a.db));
        std::fputs(msv_summary(run, models, stage).c_str(), stderr);
    }
    write_msv_rows(outputs.out(), parse_format(common.format), opt.bias, models, stage, run.row_names);
    outputs.commit(msv_stats(run, models, stage, common.threads));
    finish_stdout();  // gpu-viterbi reading our rows goes on while the engines are freed
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return run_tool(kTool, argc, argv, run); }
