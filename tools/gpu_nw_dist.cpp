// gpu-nw-dist: all-pairs Needleman-Wunsch distance matrices of amplicon
// reads, identical to AmpliconNoise's NDist or SeqDist, on GPUs or the CPU,
// computed whole or as row slices (--rows, --tile) that concatenate to the
// whole matrix. The options are tools/nw/nw_options, the stage
// tools/nw/nw_stage, the writer tools/nw/nw_matrix_writer.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "core/nw/nw_cpu.hpp"
#include "kernels/nw/nw_cuda.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/progress.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/common/tool_outputs.hpp"
#include "tools/nw/nw_options.hpp"
#include "tools/nw/nw_stage.hpp"

using namespace warpdp;

namespace {

constexpr const char* kTool = "gpu-nw-dist";

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-nw-dist [options] READS.fa  (or --in READS.fa)",
            "All-pairs Needleman-Wunsch distances of amplicon reads, identical to AmpliconNoise's NDist or SeqDist.");
    NwArgs a;
    add_nw_options(cli, a);
    if (!cli.parse(argc, argv)) return 0;
    const auto& common = cli.common();
    const auto say = [&](const std::string& text) {
        if (!common.quiet) warn(kTool, text);
    };
    const NwSettings s = check_nw_options(cli, a, say);

    hide_unused_gpus(common.device, std::numeric_limits<double>::infinity());  // only an explicit list narrows
    NwEngines engines(kTool, common, [threads = common.threads](const DeviceChoice& d) {
        return d.cuda ? make_nw_cuda_engine(d.gpus) : make_nw_cpu_engine(threads);
    });
    const auto t0 = std::chrono::steady_clock::now();
    ToolOutputs outputs(common.output, a.stats);
    const NwReads reads = load_nw_reads(a.in, s.reads, say);
    const std::vector<uint32_t> lengths = nw_read_lengths(reads);
    const RowRange rows = nw_row_range(a.rows, a.tile, lengths);
    const NwCodedReads coded = code_nw_reads(reads, s.reads.metric, s.table);
    NwEngine& engine = load_nw_engine(engines, reads, coded);
    NwMatrixWriter writer(outputs.out(), reads, s.writer);
    if (rows.begin == 0 && rows.end > 0) writer.header();  // the slice holding row 0, if any
    Progress progress(kTool, common, "pairs");
    progress.set_total(pairs_in(rows));
    const NwStageTally t = compute_nw_rows(engine, lengths, rows, nw_chunk_budget(a.chunk_pairs, engines), writer,
                                           [&](uint64_t done) { progress.update(done); });
    progress.finish();
    NwRunReport report{engines.device(), engine.name(), s.reads.metric, common.threads, reads.size(), rows, t, {},
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
    if (s.writer.max_dist) report.within_max_dist = writer.written_pairs();
    outputs.commit(nw_stats(report));
    if (!common.quiet) std::fprintf(stderr, "%s: %s\n", kTool, nw_summary_line(report).c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return run_tool(kTool, argc, argv, run); }
