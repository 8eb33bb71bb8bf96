// gpu-sw: Smith-Waterman protein database search (docs/sw.md): every query
// against every target of a database read once, in chunks, each chunk
// loaded into the engine (resident on the GPUs) once for all queries; per
// query the best --max-hits targets by score (ties in database order), their
// bit scores and E-values, and their alignments traced on the host; TSV,
// JSON Lines or BLAST's tabular m8. The options are tools/sw/sw_options, the
// stage tools/sw/sw_search (with sw_hits and sw_matrix_choice), the writer
// tools/sw/sw_output.
#include <chrono>
#include <cstdio>
#include <limits>
#include <string>

#include "core/base/alphabet.hpp"
#include "core/sw/sw_cpu.hpp"
#include "kernels/sw/sw_cuda.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/progress.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/common/tool_outputs.hpp"
#include "tools/sw/sw_options.hpp"
#include "tools/sw/sw_search.hpp"

using namespace warpdp;

namespace {

constexpr const char* kTool = "gpu-sw";

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-sw [options] QUERIES.fa DATABASE.fa  (or --query QUERIES.fa --db DATABASE.fa)", kSwSummary);
    SwArgs a;
    add_sw_options(cli, a);
    if (!cli.parse(argc, argv)) return 0;
    const auto& common = cli.common();
    const SwSettings s = check_sw_options(cli, a);
    const SwScoring scoring = sw_scoring(s.matrix, s.gaps);

    hide_unused_gpus(common.device, std::numeric_limits<double>::infinity());  // only an explicit list narrows
    SwEngines engines(kTool, common, [threads = common.threads](const DeviceChoice& d) {
        return d.cuda ? make_sw_cuda_engine(d.gpus) : make_sw_cpu_engine(threads);
    });
    const auto t0 = std::chrono::steady_clock::now();
    ToolOutputs outputs(common.output, a.stats);
    const SwCodes codes(s.matrix);
    SwSearch search(scoring, codes, read_sw_queries(a.query, codes, common.threads), s.search);
    SeqReader reader(a.db, Alphabet::amino(), sw_reader_options(common.threads, a.chunk_residues));
    Progress progress(kTool, common, "targets");
    run_sw_stage(search, reader, engines, progress);
    if (search.tally().targets == 0) throw InputError(a.db, 0, "no sequences in the database");
    search.finish(common.threads);
    SwWriter writer(outputs.out(), s.format, !a.score_only, a.cigar);
    search.write(writer);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const size_t queries = search.queries().names.size();
    outputs.commit(sw_stats(search.tally(), s.matrix, s.gaps, s.search.statistics, queries, engines.device(),
                            common.threads, seconds));
    if (!common.quiet)
        std::fprintf(stderr, "%s: %s\n", kTool, sw_summary_line(search.tally(), queries, engines.device(), seconds).c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return run_tool(kTool, argc, argv, run); }
