// gpu-nussinov: Nussinov folding (docs/nussinov.md) of every RNA of a FASTA
// file, on GPUs or the CPU: the best score under the pair weights and the
// structure the one traceback rule picks, one result a sequence in input
// order, as TSV, JSON Lines or RNAfold's layout. The options are
// tools/nussinov/nussinov_options, the stage tools/nussinov/nussinov_stage,
// the writer tools/nussinov/nussinov_output.
#include <chrono>
#include <cstdio>
#include <limits>
#include <string>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/io/seq_reader.hpp"
#include "core/nussinov/nussinov_cpu.hpp"
#include "kernels/nussinov/nussinov_cuda.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/progress.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/common/tool_outputs.hpp"
#include "tools/nussinov/nussinov_options.hpp"
#include "tools/nussinov/nussinov_output.hpp"
#include "tools/nussinov/nussinov_stage.hpp"

using namespace warpdp;

namespace {

constexpr const char* kTool = "gpu-nussinov";

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-nussinov [options] RNAS.fa  (or --in RNAS.fa)",
            "Nussinov folding of RNAs: the maximum-weight non-crossing base pairing of each sequence and its "
            "dot-bracket structure (docs/nussinov.md).");
    NussinovArgs a;
    add_nussinov_options(cli, a);
    if (!cli.parse(argc, argv)) return 0;
    const auto& common = cli.common();
    const NussinovSettings s = check_nussinov_options(cli, a);

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
    NussinovStage stage(s.params, !a.no_structure, s.format == NussinovFormat::vienna, nussinov_cpu_memory_budget());
    NussinovWriter writer(outputs.out(), s.format, !a.no_structure);
    Progress progress(kTool, common, "sequences");
    run_nussinov_stage(reader, abc, a.strict, stage, engines, writer, outputs.out(), progress);
    const NussinovTally& t = stage.tally();
    if (t.sequences == 0) throw InputError(a.in, 0, "no sequences");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    auto stats = nussinov_stats(t, s.params, !a.no_structure, engines.device(), seconds);
    stats["threads"] = common.threads;
    outputs.commit(stats);
    if (common.quiet) return 0;
    if (t.other) warn(kTool, nussinov_other_letters_warning(t, a.in));
    std::fprintf(stderr, "%s: %s\n", kTool, nussinov_summary_line(t, engines.device(), seconds).c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return run_tool(kTool, argc, argv, run); }
