// gpu-nussinov: Nussinov folding (docs/nussinov.md) of every RNA of a FASTA
// file, on GPUs or the CPU: the best score under the pair weights and the
// structure the one traceback rule picks, one result a sequence in input
// order, as TSV, JSON Lines or RNAfold's layout. The stage is
// tools/nussinov/nussinov_stage, the writer tools/nussinov/nussinov_output.
#include <chrono>
#include <cstdio>
#include <limits>
#include <string>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/io/distinct_paths.hpp"
#include "core/io/seq_reader.hpp"
#include "core/nussinov/nussinov_cpu.hpp"
#include "kernels/nussinov/nussinov_cuda.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/progress.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/common/tool_outputs.hpp"
#include "tools/nussinov/nussinov_output.hpp"
#include "tools/nussinov/nussinov_stage.hpp"

using namespace warpdp;
namespace po = boost::program_options;

namespace {

constexpr const char* kTool = "gpu-nussinov";

struct Args {
    std::string in, weights, stats;
    int64_t min_loop = 1;
    bool no_structure = false, no_gu = false, strict = false;
};

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-nussinov [options] RNAS.fa  (or --in RNAS.fa)",
            "Nussinov folding of RNAs: the maximum-weight non-crossing base pairing of each sequence and its "
            "dot-bracket structure (docs/nussinov.md).");
    Args a;
    cli.tool_options().add_options()
        ("in", po::value<std::string>(&a.in)->required(), "RNA or DNA sequences (FASTA; plain, gzip, bgzip or - for stdin)")
        ("no-structure", po::bool_switch(&a.no_structure), "scores only (tsv, jsonl): no traceback")
        ("min-loop", po::value<int64_t>(&a.min_loop)->default_value(1),
         "unpaired bases a pair must enclose at least (0 allows adjacent pairs)")
        ("no-gu", po::bool_switch(&a.no_gu), "forbid G-U (wobble) pairs")
        ("weights", po::value<std::string>(&a.weights),
         "pair weights, e.g. GC=3,AU=2,GU=1 (whole numbers 0..10000; default 1 each: the number of pairs)")
        ("strict", po::bool_switch(&a.strict), "reject letters other than A, C, G, U and T instead of leaving them unpaired")
        ("stats", po::value<std::string>(&a.stats), "also write the run summary as JSON to FILE");
    cli.positional().add("in", 1);
    cli.set_formats({"tsv", "jsonl", "vienna"});
    if (!cli.parse(argc, argv)) return 0;
    const auto& common = cli.common();
    if (a.min_loop < 0 || a.min_loop > (int64_t{1} << 30))
        throw UsageError("--min-loop must be a whole number from 0 to 2^30, not " + std::to_string(a.min_loop));
    NussinovParams params;
    params.min_loop = static_cast<int>(a.min_loop);
    params.gu = !a.no_gu;
    if (cli.vm().count("weights")) parse_nussinov_weights(a.weights, params);
    const NussinovFormat format = parse_nussinov_format(common.format);
    if (format == NussinovFormat::vienna && a.no_structure)
        throw UsageError("--no-structure applies to --format tsv and jsonl (vienna prints the structure)");
    refuse_shared_paths({{"--in", a.in}}, {common.output_path(), {"--stats", a.stats}});

    hide_unused_gpus(common.device, std::numeric_limits<double>::infinity());  // only an explicit list narrows
    NussinovEngines engines(kTool, common, [threads = common.threads](const DeviceChoice& d) {
        return d.cuda ? make_nussinov_cuda_engine(d.gpus) : make_nussinov_cpu_engine(threads);
    });
    const auto t0 = std::chrono::steady_clock::now();
    ToolOutputs outputs(common.output, a.stats);
    SeqReaderOptions ropt;
    ropt.parse_threads = common.threads;
    const Alphabet& abc = a.strict ? Alphabet::rna_acgu() : Alphabet::rna();
    SeqReader reader(a.in, abc, ropt);
    NussinovStage stage(params, !a.no_structure, format == NussinovFormat::vienna, nussinov_cpu_memory_budget());
    NussinovWriter writer(outputs.out(), format, !a.no_structure);
    Progress progress(kTool, common, "sequences");

    SeqBatch batch;
    for (;;) {
        try {
            if (!reader.next(batch)) break;
        } catch (const InputError& e) {
            if (!a.strict) throw;
            throw InputError(e.file(), e.line(), e.message() + " (--strict accepts A, C, G, U and T only)");
        }
        const auto results = stage.run(batch, abc, engines);
        if (stage.tally().sequences == results.size()) writer.header();
        for (const auto& r : results) writer.write(r.name, r.desc, r.letters, r.length, r.fold);
        outputs.out().flush();  // each batch's results are final: a pipe's reader takes them now
        progress.update(stage.tally().sequences,
                        std::to_string(stage.tally().bases) + " bases");
    }
    progress.finish();
    const NussinovTally& t = stage.tally();
    if (t.sequences == 0) throw InputError(a.in, 0, "no sequences");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    auto stats = nussinov_stats(t, params, !a.no_structure, engines.device(), seconds);
    stats["threads"] = common.threads;
    outputs.commit(stats);
    if (common.quiet) return 0;
    if (t.other)
        warn(kTool, a.in + ": " + std::to_string(t.other) + " letter" + (t.other == 1 ? "" : "s") +
                        " other than A, C, G, U and T (IUPAC codes such as N, gaps) never pair, the first in record " +
                        quoted_name(t.first_other) + " (--strict rejects them)");
    std::fprintf(stderr, "%s: %s\n", kTool, nussinov_summary_line(t, engines.device(), seconds).c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return run_tool(kTool, argc, argv, run); }
