// gpu-nw-dist's options and their checks.
#include "tools/nw/nw_options.hpp"

#include "core/base/errors.hpp"
#include "core/io/distinct_paths.hpp"
#include "core/nw/nw_rows.hpp"
#include "tools/nw/nw_stage.hpp"

namespace warpdp {

namespace po = boost::program_options;

void add_nw_options(Cli& cli, NwArgs& a) {
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
}

NwSettings check_nw_options(const Cli& cli, const NwArgs& a, const std::function<void(const std::string&)>& say) {
    check_at_most("--chunk-pairs", a.chunk_pairs, uint64_t{1} << 40);
    check_at_most("--max-read-length", a.max_read_length, uint64_t{1} << 31);
    NwSettings s;
    s.reads.metric = parse_nw_metric(a.metric);
    s.reads.strict = a.strict;
    s.reads.max_length = static_cast<uint32_t>(a.max_read_length);
    s.writer.format = parse_nw_format(cli.common().format);
    s.writer.metric = s.reads.metric;
    s.writer.ids = a.ids;
    if (cli.vm().count("max-dist")) s.writer.max_dist = a.max_dist;
    check_nw_writer_options(s.writer);
    if (!a.rows.empty() && !a.tile.empty()) throw UsageError("--rows and --tile exclude each other");
    if (!a.lookup.empty() && s.reads.metric != NwMetric::seqdist)
        throw UsageError("--lookup applies to --metric seqdist only");
    refuse_shared_paths({{"--in", a.in}, {"--lookup", a.lookup}}, {cli.common().output_path(), {"--stats", a.stats}});
    if (s.reads.metric == NwMetric::seqdist)
        s.table = choose_seqdist_table(a.lookup, [&](const std::string& f) {
            say("substitution table from SEQ_LOOKUP_FILE: " + f + " (as SeqDist reads it)");
        });
    else
        s.table = tran_dat();
    // The syntax of a slice now, before a large input is read; its bounds
    // once the reads are counted.
    if (!a.rows.empty()) (void)parse_rows_syntax(a.rows);
    if (!a.tile.empty()) (void)parse_tile(a.tile, {});
    return s;
}

}  // namespace warpdp
