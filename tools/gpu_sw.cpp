// gpu-sw: Smith-Waterman protein database search (docs/sw.md): every query
// against every target of a database read once, in chunks, each chunk
// loaded into the engine (resident on the GPUs) once for all queries; per
// query the best --max-hits targets by score (ties in database order), their
// bit scores and E-values, and their alignments traced on the host; TSV,
// JSON Lines or BLAST's tabular m8. The stage is tools/sw/sw_search (with
// sw_hits and sw_matrix_choice), the writer tools/sw/sw_output.
#include <chrono>
#include <cstdio>
#include <limits>
#include <string>

#include "core/base/alphabet.hpp"
#include "core/io/distinct_paths.hpp"
#include "core/sw/sw_cpu.hpp"
#include "kernels/sw/sw_cuda.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/progress.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/common/tool_outputs.hpp"
#include "tools/sw/sw_search.hpp"

using namespace warpdp;
namespace po = boost::program_options;

namespace {

constexpr const char* kTool = "gpu-sw";

const char* kSummary =
    "Smith-Waterman local alignment of protein queries against a protein database, with BLAST-tabular hits "
    "(docs/sw.md). Gap costs are BLAST's: a gap of k residues costs OPEN + k x EXTEND (blastp -gapopen OPEN "
    "-gapextend EXTEND, DIAMOND --gapopen --gapextend, MMseqs2 --gap-open --gap-extend), and the defaults 11 and 1 "
    "are blastp's. The same costs are parasail_aligner -o OPEN+EXTEND -e EXTEND (-o 12 -e 1 for the defaults), "
    "ssearch36 -f -OPEN -g -EXTEND and CUDASW++4.0 --gop -(OPEN+EXTEND) --gex -EXTEND. Letters the matrix lacks "
    "(U, O, J with the built-ins, in either case) and '.', '_' and '~' score as its '*' (as parasail_aligner scores "
    "them); '-', digits and other characters are input errors.";

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-sw [options] QUERIES.fa DATABASE.fa  (or --query QUERIES.fa --db DATABASE.fa)", kSummary);
    SwArgs a;
    cli.tool_options().add_options()
        ("query", po::value<std::string>(&a.query)->required(), "protein queries (FASTA; plain, gzip or - for stdin)")
        ("db", po::value<std::string>(&a.db)->required(), "protein database (FASTA; plain, gzip or - for stdin)")
        ("matrix", po::value<std::string>(&a.matrix)->default_value("BLOSUM62"),
         "BLOSUM45, BLOSUM50, BLOSUM62 or BLOSUM80, or an NCBI-format matrix FILE")
        ("gap-open", po::value<int64_t>(&a.gap_open)->default_value(11),
         "gap existence cost, BLAST's -gapopen: a gap of k residues costs OPEN + k x EXTEND (0..1000)")
        ("gap-extend", po::value<int64_t>(&a.gap_extend)->default_value(1),
         "cost of each residue of a gap, BLAST's -gapextend (0..1000; OPEN + EXTEND from 1 to 1000)")
        ("max-hits", po::value<uint64_t>(&a.max_hits)->default_value(500),
         "report at most N targets a query, the best by score (equal scores: database order)")
        ("min-score", po::value<int64_t>(&a.min_score)->default_value(1), "report only scores >= S (S >= 1)")
        ("evalue", po::value<double>()->notifier([&a](double e) { a.max_evalue = e; }), "report only E-values <= E")
        ("no-evalue", po::bool_switch(&a.no_evalue),
         "no bit scores or E-values (for a matrix and gap costs BLAST has no statistics for)")
        ("score-only", po::bool_switch(&a.score_only), "scores only: no traceback, no coordinate columns (tsv, jsonl)")
        ("cigar", po::bool_switch(&a.cigar), "add a CIGAR column (M, I: query residue against a gap, D: target residue)")
        ("chunk-residues", po::value<uint64_t>(&a.chunk_residues)->default_value(uint64_t{1} << 30),
         "database residues loaded into the engine at once")
        ("stats", po::value<std::string>(&a.stats), "also write the run summary as JSON to FILE");
    cli.positional().add("query", 1).add("db", 1);
    cli.set_formats({"tsv", "jsonl", "m8"});
    if (!cli.parse(argc, argv)) return 0;
    const auto& common = cli.common();
    const SwFormat format = parse_sw_format(common.format);
    check_sw_args(a, format);
    refuse_shared_paths({{"--query", a.query}, {"--db", a.db}, {"--matrix", a.matrix}},
                        {common.output_path(), {"--stats", a.stats}});
    const SwMatrix matrix = choose_sw_matrix(a.matrix);
    const SwGapCosts gaps{static_cast<int>(a.gap_open), static_cast<int>(a.gap_extend)};
    const SwScoring scoring = sw_scoring(matrix, gaps);
    check_sw_scoring(scoring);
    SwSearchOptions opt{a.max_hits, a.min_score, std::nullopt, a.max_evalue, !a.score_only};
    if (!a.no_evalue) opt.statistics = choose_sw_statistics(matrix, gaps);

    hide_unused_gpus(common.device, std::numeric_limits<double>::infinity());  // only an explicit list narrows
    SwEngines engines(kTool, common, [threads = common.threads](const DeviceChoice& d) {
        return d.cuda ? make_sw_cuda_engine(d.gpus) : make_sw_cpu_engine(threads);
    });
    const auto t0 = std::chrono::steady_clock::now();
    ToolOutputs outputs(common.output, a.stats);
    const SwCodes codes(matrix);
    SwSearch search(scoring, codes, read_sw_queries(a.query, codes, common.threads), opt);
    SeqReader reader(a.db, Alphabet::amino(), sw_reader_options(common.threads, a.chunk_residues));
    Progress progress(kTool, common, "targets");
    const std::string of_queries = " of " + std::to_string(search.queries().names.size());
    SeqBatch chunk;
    while (reader.next(chunk))
        search.search(chunk, engines, [&](size_t q, uint64_t targets) {
            progress.update(targets, "chunk " + std::to_string(search.tally().chunks + 1) + ", query " +
                                         std::to_string(q + 1) + of_queries);
        });
    progress.finish();
    if (search.tally().targets == 0) throw InputError(a.db, 0, "no sequences in the database");
    search.finish(common.threads);
    SwWriter writer(outputs.out(), format, !a.score_only, a.cigar);
    search.write(writer);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const size_t queries = search.queries().names.size();
    outputs.commit(
        sw_stats(search.tally(), matrix, gaps, opt.statistics, queries, engines.device(), common.threads, seconds));
    if (!common.quiet)
        std::fprintf(stderr, "%s: %s\n", kTool, sw_summary_line(search.tally(), queries, engines.device(), seconds).c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return run_tool(kTool, argc, argv, run); }
