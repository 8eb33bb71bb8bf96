// gpu-nw-dist: all-pairs Needleman-Wunsch distance matrices of amplicon
// reads, identical to AmpliconNoise's NDist or SeqDist, on GPUs or the CPU,
// computed whole or as row slices (--rows, --tile) that concatenate to the
// whole matrix.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/io/distinct_paths.hpp"
#include "core/io/output_file.hpp"
#include "core/nw/nw_cpu.hpp"
#include "core/nw/nw_engine.hpp"
#include "core/nw/nw_matrix_writer.hpp"
#include "core/nw/nw_pair_order.hpp"
#include "core/nw/nw_reads.hpp"
#include "core/nw/nw_rows.hpp"
#include "kernels/nw/nw_cuda.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/device_choice.hpp"
#include "tools/common/tool_main.hpp"

using namespace warpdp;
namespace po = boost::program_options;

namespace {

constexpr const char* kTool = "gpu-nw-dist";
constexpr int kShownCuts = 10;  // cut-line warnings shown one by one, then counted

struct Args {
    std::string in, metric = "ndist", lookup, rows, tile;
    bool ids = false, strict = false;
    double max_dist = -1;
    uint64_t chunk_pairs = 0, max_read_length = NwReadOptions{}.max_length;
};

NwReads load_reads(const Args& a, NwMetric metric, bool quiet) {
    NwReadOptions ropt;
    ropt.metric = metric;
    ropt.strict = a.strict;
    ropt.max_length = static_cast<uint32_t>(a.max_read_length);
    uint64_t cuts = 0;
    auto on_cut = [&](uint64_t line, const std::string& record, char c) {
        ++cuts;
        if (quiet || cuts > kShownCuts) return;
        const unsigned char u = static_cast<unsigned char>(c);
        const std::string shown = u >= 0x20 && u < 0x7f ? std::string("'") + c + "'" : "byte " + std::to_string(u);
        warn(kTool, a.in + ":" + std::to_string(line) + ": read " + quoted_name(record) + ": line cut at " + shown + " (not a " +
                        nw_metric_name(metric) + " letter; AmpliconNoise drops the rest of the line, so do we; " +
                        "--strict rejects such input)");
    };
    NwReads reads = read_nw_reads(a.in, ropt, on_cut);
    if (cuts > kShownCuts && !quiet)
        warn(kTool, std::to_string(cuts) + " lines were cut in all (" + std::to_string(cuts - kShownCuts) +
                        " more not shown)");
    return reads;
}

// SeqDist's table: -rin (--lookup), else the file $SEQ_LOOKUP_FILE names
// (AmpliconNoise's set-up scripts and module files export it), else Tran.dat.
SeqDistTable seqdist_table(const std::string& lookup, bool quiet) {
    if (!lookup.empty()) return read_seqdist_table(lookup);
    const char* env = std::getenv("SEQ_LOOKUP_FILE");
    if (env == nullptr) return tran_dat();
    if (*env == '\0') throw UsageError("SEQ_LOOKUP_FILE is set but empty (unset it to use the built-in Tran.dat)");
    if (!quiet) warn(kTool, std::string("substitution table from SEQ_LOOKUP_FILE: ") + env + " (as SeqDist reads it)");
    try {
        return read_seqdist_table(env);
    } catch (const InputError& e) {  // the user may not know the variable is set
        throw InputError(e.file(), e.line(), e.message() + " (named by SEQ_LOOKUP_FILE)");
    }
}

std::unique_ptr<NwEngine> make_engine(const DeviceChoice& dev, unsigned threads) {
    return dev.cuda ? make_nw_cuda_engine(dev.gpus) : make_nw_cpu_engine(threads);
}

// Row chunks of about `budget` pairs (at least one row each), in order.
std::vector<RowRange> chunk_rows(const RowRange& r, uint64_t budget) {
    std::vector<RowRange> out;
    for (uint64_t i = r.begin; i < r.end;) {
        uint64_t e = i, pairs = 0;
        do pairs += e++;
        while (e < r.end && pairs + e <= budget);
        out.push_back({i, e});
        i = e;
    }
    return out;
}

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-nw-dist --in READS.fa [options]",
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
         "refuse a read longer than this (a guard against a genome given by mistake)");
    cli.set_formats({"ndist", "tsv", "jsonl", "phylip", "binary"});
    if (!cli.parse(argc, argv)) return 0;
    check_at_most("--chunk-pairs", a.chunk_pairs, uint64_t{1} << 40);
    check_at_most("--max-read-length", a.max_read_length, uint64_t{1} << 31);
    const auto& common = cli.common();
    const NwMetric metric = parse_nw_metric(a.metric);
    NwWriterOptions wopt;
    wopt.format = parse_nw_format(common.format);
    wopt.metric = metric;
    wopt.ids = a.ids;
    if (cli.vm().count("max-dist")) wopt.max_dist = a.max_dist;
    check_nw_writer_options(wopt);
    if (!a.rows.empty() && !a.tile.empty()) throw UsageError("--rows and --tile exclude each other");
    if (!a.lookup.empty() && metric != NwMetric::seqdist) throw UsageError("--lookup applies to --metric seqdist only");
    refuse_shared_paths({{"--in", a.in}, {"--lookup", a.lookup}}, {common.output_path()});
    const SeqDistTable table = metric == NwMetric::seqdist ? seqdist_table(a.lookup, common.quiet) : tran_dat();

    // Command-line mistakes before reading a large input: the syntax now, the
    // row bounds once the reads are counted.
    if (!a.rows.empty()) (void)parse_rows_syntax(a.rows);
    if (!a.tile.empty()) (void)parse_tile(a.tile, {});
    hide_unused_gpus(common.device, std::numeric_limits<double>::infinity());  // only an explicit list narrows
    const DeviceChoice dev = resolve_device(common.device);
    auto engine_ready = std::async(std::launch::async, make_engine, dev, common.threads);
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    const NwReads reads = load_reads(a, metric, common.quiet);
    const uint64_t n = reads.size();
    std::vector<uint32_t> lengths(n);
    for (uint64_t i = 0; i < n; ++i) lengths[i] = reads.length(i);
    RowRange rows{0, n};
    if (!a.rows.empty()) rows = parse_rows(a.rows, n);
    if (!a.tile.empty()) rows = parse_tile(a.tile, lengths);
    const NwCodedReads coded = code_nw_reads(reads, metric, table);
    auto engine = engine_ready.get();
    engine->load(reads, coded);

    OutputFile out(common.output);
    NwMatrixWriter writer(out, reads, wopt);
    if (rows.begin == 0 && rows.end > 0) writer.header();  // the slice holding row 0, if any
    // Chunks big enough to keep every GPU busy between the tool's own stages
    // (about 16M pairs per GPU, 128 MB of distances each).
    const uint64_t budget = a.chunk_pairs ? a.chunk_pairs
                                          : (dev.cuda ? (uint64_t{1} << 24) * dev.gpus.size() : uint64_t{1} << 20);
    const uint64_t total_pairs = pairs_in(rows), total_cells = cells_in(rows, lengths);
    uint64_t done_pairs = 0, done_cells = 0;
    double engine_s = 0;
    // Three stages overlap: the pairs of chunk k+1 are listed while the engine
    // computes chunk k, and chunk k-1 is put back in row-major order and
    // written meanwhile.
    struct Work {
        std::vector<NwPair> pairs;
        std::vector<uint64_t> position;
    };
    const NwPairOrder order(lengths);
    const std::vector<RowRange> chunks = chunk_rows(rows, budget);
    auto list = [&order, &chunks](size_t c) {
        Work w;
        order.pairs(chunks[c], w.pairs, w.position);
        return w;
    };
    std::future<Work> listing;
    if (!chunks.empty()) listing = std::async(std::launch::async, list, size_t{0});
    std::future<void> writing;
    for (size_t ci = 0; ci < chunks.size(); ++ci) {
        const RowRange c = chunks[ci];
        Work w = listing.get();
        if (ci + 1 < chunks.size()) listing = std::async(std::launch::async, list, ci + 1);
        std::vector<double> values(w.pairs.size());
        const auto e0 = clock::now();
        engine->compute(w.pairs, values);
        engine_s += std::chrono::duration<double>(clock::now() - e0).count();
        if (writing.valid()) writing.get();
        writing = std::async(std::launch::async, [&writer, c, values = std::move(values), w = std::move(w)] {
            std::vector<double> row_major(values.size());
            for (size_t k = 0; k < values.size(); ++k) row_major[w.position[k]] = values[k];
            writer.rows(c.begin, c.end - c.begin, row_major);
        });
        done_pairs += pairs_in(c);
        done_cells += cells_in(c, lengths);
        if (common.progress) {
            const double s = std::chrono::duration<double>(clock::now() - t0).count();
            std::fprintf(stderr, "\r%s: rows %llu/%llu, %.1f%% of pairs, %.3g pairs/s, %.3g cells/s   ", kTool,
                         static_cast<unsigned long long>(c.end), static_cast<unsigned long long>(rows.end),
                         total_pairs ? 100.0 * done_pairs / total_pairs : 100.0, done_pairs / std::max(s, 1e-9),
                         done_cells / std::max(s, 1e-9));
        }
    }
    if (writing.valid()) writing.get();
    if (common.progress) std::fputc('\n', stderr);
    out.commit();
    const double seconds = std::chrono::duration<double>(clock::now() - t0).count();
    if (!common.quiet)
        std::fprintf(stderr, "%s: %s, %llu reads, rows %llu:%llu, %llu pairs, %llu cells, device %s (%s), %.3f s, "
                     "%.2f GCUPS in the engine (%.3f s)%s\n", kTool, nw_metric_name(metric),
                     static_cast<unsigned long long>(n), static_cast<unsigned long long>(rows.begin),
                     static_cast<unsigned long long>(rows.end), static_cast<unsigned long long>(total_pairs),
                     static_cast<unsigned long long>(total_cells), dev.describe().c_str(), engine->name().c_str(),
                     seconds, engine_s > 0 ? total_cells / engine_s / 1e9 : 0.0, engine_s,
                     wopt.max_dist ? (", " + std::to_string(writer.written_pairs()) + " pairs within --max-dist").c_str() : "");
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return run_tool(kTool, argc, argv, run); }
