// gpu-nw-dist: all-pairs Needleman-Wunsch distance matrices of amplicon
// reads, identical to AmpliconNoise's NDist or SeqDist, on GPUs or the CPU,
// computed whole or as row slices (--rows, --tile) that concatenate to the
// whole matrix. The stage is tools/nw/nw_stage, the writer
// tools/nw/nw_matrix_writer.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/io/distinct_paths.hpp"
#include "core/nw/nw_cpu.hpp"
#include "kernels/nw/nw_cuda.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/progress.hpp"
#include "tools/common/tool_engines.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/common/tool_outputs.hpp"
#include "tools/nw/nw_stage.hpp"

using namespace warpdp;
namespace po = boost::program_options;

namespace {

constexpr const char* kTool = "gpu-nw-dist";

struct Args {
    std::string in, metric = "ndist", lookup, rows, tile, stats;
    bool ids = false, strict = false;
    double max_dist = -1;
    uint64_t chunk_pairs = 0, max_read_length = NwReadOptions{}.max_length;
};

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-nw-dist [options] READS.fa  (or --in READS.fa)",
            "All-pairs Needleman-Wunsch distances of amplicon reads, identical to AmpliconNoise's NDist or SeqDist.");
    Args a;
    cli.tool_options().add_options()
        ("in", po::value<std::string>(&a.in)->required(), "reads (FASTA; plain, gzip, bgzip or - for stdin)")
        ("metric", po::value<std::string>(&a.metric)->default_value("ndist"), "ndist (NDist) or seqdist (SeqDist)")
        ("lookup", po::value<std::string>(&a.lookup),
         "SeqDist substitution table (4x4, order A,C,T,G; default: $SEQ_LOOKUP_FILE if set, as SeqDist, else Tran.dat)")
        ("ids,i", po::bool_switch(&a.ids), "ndist format: list the read ids after the count (NDist/SeqDist -i)")
        ("strict", po::bool_switch(&a.strict), "reject letters outside the metric's alphabet instead of cutting the line")
        ("max-dist", po::value<double>(&a.max_dist), "write only pairs with distance <= D (tsv, jsonl)")
        ("rows", po::value<std::string>(&a.rows), "compute rows A:B of the lower triangle (0-based, half-open)")
        ("tile", po::value<std::string>(&a.tile), "compute tile K of N (K/N, 1-based), tiles balanced by cell count")
        ("chunk-pairs", po::value<uint64_t>(&a.chunk_pairs)->default_value(0),
         "pairs handed to the engine at once (0 = automatic)")
        ("max-read-length", po::value<uint64_t>(&a.max_read_length)->default_value(a.max_read_length),
         "refuse a read longer than this (a guard against a genome given by mistake)")
        ("stats", po::value<std::string>(&a.stats), "also write the run summary as JSON to FILE");
    cli.positional().add("in", 1);
    cli.add_environment("SEQ_LOOKUP_FILE", "SeqDist's substitution table when --lookup is not given (as SeqDist)");
    cli.set_formats({"ndist", "tsv", "jsonl", "phylip", "binary"});
    if (!cli.parse(argc, argv)) return 0;
    check_at_most("--chunk-pairs", a.chunk_pairs, uint64_t{1} << 40);
    check_at_most("--max-read-length", a.max_read_length, uint64_t{1} << 31);
    const auto& common = cli.common();
    NwReadOptions ropt;
    ropt.metric = parse_nw_metric(a.metric);
    ropt.strict = a.strict;
    ropt.max_length = static_cast<uint32_t>(a.max_read_length);
    NwWriterOptions wopt;
    wopt.format = parse_nw_format(common.format);
    wopt.metric = ropt.metric;
    wopt.ids = a.ids;
    if (cli.vm().count("max-dist")) wopt.max_dist = a.max_dist;
    check_nw_writer_options(wopt);
    if (!a.rows.empty() && !a.tile.empty()) throw UsageError("--rows and --tile exclude each other");
    if (!a.lookup.empty() && ropt.metric != NwMetric::seqdist) throw UsageError("--lookup applies to --metric seqdist only");
    refuse_shared_paths({{"--in", a.in}, {"--lookup", a.lookup}}, {common.output_path(), {"--stats", a.stats}});
    const auto say = [&](const std::string& text) {
        if (!common.quiet) warn(kTool, text);
    };
    const SeqDistTable table = ropt.metric == NwMetric::seqdist
        ? choose_seqdist_table(a.lookup, [&](const std::string& f) {
              say("substitution table from SEQ_LOOKUP_FILE: " + f + " (as SeqDist reads it)");
          })
        : tran_dat();
    // Command-line mistakes before reading a large input: the syntax now, the
    // row bounds once the reads are counted.
    if (!a.rows.empty()) (void)parse_rows_syntax(a.rows);
    if (!a.tile.empty()) (void)parse_tile(a.tile, {});

    hide_unused_gpus(common.device, std::numeric_limits<double>::infinity());  // only an explicit list narrows
    ToolEngines<std::unique_ptr<NwEngine>> engines(kTool, common, [threads = common.threads](const DeviceChoice& d) {
        return d.cuda ? make_nw_cuda_engine(d.gpus) : make_nw_cpu_engine(threads);
    });
    const auto t0 = std::chrono::steady_clock::now();
    ToolOutputs outputs(common.output, a.stats);
    const NwReads reads = load_nw_reads(a.in, ropt, say);
    std::vector<uint32_t> lengths(reads.size());
    for (uint64_t i = 0; i < reads.size(); ++i) lengths[i] = reads.length(i);
    const RowRange rows = !a.rows.empty() ? parse_rows(a.rows, reads.size())
                        : !a.tile.empty() ? parse_tile(a.tile, lengths)
                                          : RowRange{0, reads.size()};
    const NwCodedReads coded = code_nw_reads(reads, ropt.metric, table);
    NwEngine* engine = engines.for_chunk().get();
    try {
        engine->load(reads, coded);
    } catch (const ResourceError& e) {
        engine = engines.cpu_for(e).get();
        engine->load(reads, coded);
    }
    NwMatrixWriter writer(outputs.out(), reads, wopt);
    if (rows.begin == 0 && rows.end > 0) writer.header();  // the slice holding row 0, if any
    // Chunks big enough to keep every GPU busy between the stage's own steps
    // (about 16M pairs per GPU, 128 MB of distances each).
    const uint64_t gpus = engines.on_cuda() ? engines.gpu_count() : 0;
    const uint64_t budget = a.chunk_pairs ? a.chunk_pairs : gpus ? (uint64_t{1} << 24) * gpus : uint64_t{1} << 20;
    Progress progress(kTool, common, "pairs");
    progress.set_total(pairs_in(rows));
    const NwStageTally t = compute_nw_rows(*engine, lengths, rows, budget, writer,
                                           [&](uint64_t done) { progress.update(done); });
    progress.finish();
    NwRunReport report{engines.device(), engine->name(), ropt.metric, common.threads, reads.size(), rows, t, {},
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
    if (wopt.max_dist) report.within_max_dist = writer.written_pairs();
    outputs.commit(nw_stats(report));
    if (!common.quiet) std::fprintf(stderr, "%s: %s\n", kTool, nw_summary_line(report).c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return run_tool(kTool, argc, argv, run); }
