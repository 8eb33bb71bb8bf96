// gpu-msv's options, their checks and the reader's options.
#include "tools/hmmer/msv_options.hpp"

#include <algorithm>

#include "core/base/errors.hpp"
#include "core/hmmer/background.hpp"
#include "core/io/distinct_paths.hpp"
#include "tools/hmmer/hmmer_costs.hpp"

namespace warpdp {

namespace po = boost::program_options;

void add_msv_options(Cli& cli, MsvArgs& a) {
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
}

MsvSearchOptions check_msv_options(const MsvArgs& a, const CommonOptions& common) {
    check_at_most("--chunk-residues", a.chunk_residues, uint64_t{1} << 40);
    if (a.hmm == "-" && a.db == "-") throw UsageError("--hmm and --db cannot both be stdin");
    refuse_shared_paths({{"--hmm", a.hmm}, {"--db", a.db}}, {common.output_path(), {"--stats", a.stats}});
    MsvSearchOptions opt;
    opt.F1 = std::min(a.F1.value, 1.0);
    opt.bias = !a.nobias;
    opt.all = a.all;
    opt.threads = common.threads;
    return opt;
}

SeqReaderOptions msv_reader_options(const MsvArgs& a, uint64_t sum_m, unsigned threads) {
    SeqReaderOptions ropt;
    ropt.batch_residues = a.chunk_residues ? a.chunk_residues : chunk_residues_for(sum_m);
    ropt.batch_records = static_cast<size_t>(ropt.batch_residues / 16 + 1024);
    ropt.parse_threads = threads;                      // the same records for any number
    ropt.max_record_residues = kHmmerMaxTargetLength;  // beyond, the null model is -inf
    return ropt;
}

}  // namespace warpdp
