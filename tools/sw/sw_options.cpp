// gpu-sw's options and their checks.
#include "tools/sw/sw_options.hpp"

#include <utility>

#include "core/base/errors.hpp"
#include "core/io/distinct_paths.hpp"

namespace warpdp {

namespace po = boost::program_options;

const char* const kSwSummary =
    "Smith-Waterman local alignment of protein queries against a protein database, with BLAST-tabular hits "
    "(docs/sw.md). Gap costs are BLAST's: a gap of k residues costs OPEN + k x EXTEND (blastp -gapopen OPEN "
    "-gapextend EXTEND, DIAMOND --gapopen --gapextend, MMseqs2 --gap-open --gap-extend), and the defaults 11 and 1 "
    "are blastp's. The same costs are parasail_aligner -o OPEN+EXTEND -e EXTEND (-o 12 -e 1 for the defaults), "
    "ssearch36 -f -OPEN -g -EXTEND and CUDASW++4.0 --gop -(OPEN+EXTEND) --gex -EXTEND. Letters the matrix lacks "
    "(U, O, J with the built-ins, in either case) and '.', '_' and '~' score as its '*' (as parasail_aligner scores "
    "them); '-', digits and other characters are input errors.";

void add_sw_options(Cli& cli, SwArgs& a) {
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
}

void check_sw_args(const SwArgs& a, SwFormat format) {
    // Boost reads "-1" into these unsigned options as their largest value;
    // the message names the range, which starts at 1 (check_at_most's at 0).
    if (a.max_hits == 0) throw UsageError("--max-hits must be at least 1");
    if (a.max_hits > 10'000'000) throw UsageError("--max-hits must be a whole number from 1 to 10000000");
    if (a.chunk_residues == 0) throw UsageError("--chunk-residues must be at least 1");
    if (a.chunk_residues > uint64_t{1} << 40)
        throw UsageError("--chunk-residues must be a whole number from 1 to " + std::to_string(uint64_t{1} << 40));
    if (a.min_score < 1 || a.min_score > (int64_t{1} << 31) - 1)
        throw UsageError("--min-score must be a whole number from 1 to 2^31 - 1, not " + std::to_string(a.min_score));
    if (a.max_evalue && !(*a.max_evalue > 0)) throw UsageError("--evalue must be a number above 0");
    if (a.max_evalue && a.no_evalue) throw UsageError("--evalue and --no-evalue exclude each other");
    if (a.cigar && a.score_only) throw UsageError("--cigar needs alignments: not with --score-only");
    if (format == SwFormat::m8 && a.score_only) throw UsageError("--format m8 needs alignments: not with --score-only");
    if (format == SwFormat::m8 && a.no_evalue) throw UsageError("--format m8 needs E-values: not with --no-evalue");
    if (a.query == "-" && a.db == "-") throw UsageError("--query and --db cannot both be stdin");
    if (a.matrix == "-" && (a.query == "-" || a.db == "-"))
        throw UsageError(std::string("--matrix and ") + (a.query == "-" ? "--query" : "--db") + " cannot both be stdin");
    // BLAST's terms (docs/sw.md §1): open 0 is a linear gap cost, extend 0 a
    // constant one; a one-residue gap, open + extend, must cost something,
    // and at most 1000 (the engines' bound: §6).
    if (a.gap_open < 0 || a.gap_open > 1000)
        throw UsageError("--gap-open must be a whole number from 0 to 1000, not " + std::to_string(a.gap_open));
    if (a.gap_extend < 0 || a.gap_extend > 1000)
        throw UsageError("--gap-extend must be a whole number from 0 to 1000, not " + std::to_string(a.gap_extend));
    if (a.gap_open + a.gap_extend < 1 || a.gap_open + a.gap_extend > 1000)
        throw UsageError("--gap-open + --gap-extend (a one-residue gap's cost) must be from 1 to 1000, not " +
                         std::to_string(a.gap_open + a.gap_extend));
}

SwSettings check_sw_options(const Cli& cli, const SwArgs& a) {
    const SwFormat format = parse_sw_format(cli.common().format);
    check_sw_args(a, format);
    refuse_shared_paths({{"--query", a.query}, {"--db", a.db}, {"--matrix", a.matrix}},
                        {cli.common().output_path(), {"--stats", a.stats}});
    SwMatrix matrix = choose_sw_matrix(a.matrix);
    const SwGapCosts gaps{static_cast<int>(a.gap_open), static_cast<int>(a.gap_extend)};
    check_sw_scoring(sw_scoring(matrix, gaps));
    SwSearchOptions search{a.max_hits, a.min_score, std::nullopt, a.max_evalue, !a.score_only};
    if (!a.no_evalue) search.statistics = choose_sw_statistics(matrix, gaps);
    return SwSettings{format, std::move(matrix), gaps, search};
}

}  // namespace warpdp
