// gpu-msv: HMMER 3.3.2's MSV (SSV fast path) and bias filters for profile
// HMM(s) against a protein database, with hmmsearch's exact scores, P-values
// and decisions, on a GPU or the CPU. Its TSV/JSONL rows are the candidate
// stream gpu-viterbi reads. The stage is tools/hmmer/msv_stage, the writer
// tools/hmmer/msv_output, the summary tools/hmmer/msv_summary.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/hmmer/background.hpp"
#include "core/hmmer/msv/msv_cpu.hpp"
#include "core/io/distinct_paths.hpp"
#include "core/io/seq_reader.hpp"
#include "kernels/msv/msv_cuda.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/progress.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/common/tool_outputs.hpp"
#include "tools/hmmer/amino_models.hpp"
#include "tools/hmmer/hmmer_costs.hpp"
#include "tools/hmmer/hmmer_real.hpp"
#include "tools/hmmer/msv_output.hpp"
#include "tools/hmmer/msv_stage.hpp"
#include "tools/hmmer/msv_summary.hpp"

using namespace warpdp;
namespace po = boost::program_options;

namespace {

constexpr const char* kTool = "gpu-msv";

struct Args {
    std::string hmm, db, stats;
    HmmerReal F1{0.02};
    bool nobias = false, all = false;
    uint64_t chunk_residues = 0;
};

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-msv [options] MODELS.hmm TARGETS.fa  (or --hmm MODELS.hmm --db TARGETS.fa)",
            "HMMER 3.3.2 MSV + bias filter (hmmsearch-identical scores and decisions) on GPU or CPU.");
    Args a;
    cli.tool_options().add_options()
        ("hmm", po::value<std::string>(&a.hmm)->required(), "profile HMM file (HMMER3 ASCII, plain or gzip)")
        ("db", po::value<std::string>(&a.db)->required(), "protein FASTA/FASTQ (plain, gzip, bgzip or - for stdin)")
        ("F1", po::value<HmmerReal>(&a.F1)->default_value(HmmerReal{0.02}, "0.02"), "MSV filter P-value threshold")
        ("nobias", po::bool_switch(&a.nobias), "turn off the composition bias filter")
        ("all", po::bool_switch(&a.all), "a row for every target, not only survivors")
        ("stats", po::value<std::string>(&a.stats), "also write the run summary as JSON to FILE")
        ("chunk-residues", po::value<uint64_t>(&a.chunk_residues)->default_value(0),
         "database residues held at once (0 = automatic)");
    cli.positional().add("hmm", 1).add("db", 1);
    if (!cli.parse(argc, argv)) return 0;
    const auto& common = cli.common();
    check_at_most("--chunk-residues", a.chunk_residues, uint64_t{1} << 40);
    if (a.hmm == "-" && a.db == "-") throw UsageError("--hmm and --db cannot both be stdin");
    refuse_shared_paths({{"--hmm", a.hmm}, {"--db", a.db}}, {common.output_path(), {"--stats", a.stats}});
    MsvSearchOptions opt;
    opt.F1 = std::min(a.F1.value, 1.0);  // any threshold, as hmmsearch takes it (NaN passes all)
    opt.bias = !a.nobias;
    opt.all = a.all;
    opt.threads = common.threads;
    ToolOutputs outputs(common.output, a.stats);

    const auto models = load_amino_models<MsvModel>(
        a.hmm, kTool, common.quiet, " (not calibrated): like hmmsearch, every P-value is 1 and no target passes");
    uint64_t sum_m = 0;
    for (const auto& m : models) sum_m += static_cast<uint64_t>(m.bytes.M);
    hide_unused_gpus(common.device, msv_seconds_on_one_gpu(a.db, sum_m));
    SeqReaderOptions ropt;
    ropt.batch_residues = a.chunk_residues ? a.chunk_residues : chunk_residues_for(sum_m);
    ropt.batch_records = static_cast<size_t>(ropt.batch_residues / 16 + 1024);
    ropt.parse_threads = common.threads;  // the same records for any number
    ropt.max_record_residues = kHmmerMaxTargetLength;  // beyond, the null model is -inf
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
