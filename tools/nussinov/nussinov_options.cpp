// gpu-nussinov's options and their checks.
#include "tools/nussinov/nussinov_options.hpp"

#include "core/base/errors.hpp"
#include "core/io/distinct_paths.hpp"

namespace warpdp {

namespace po = boost::program_options;

void add_nussinov_options(Cli& cli, NussinovArgs& a) {
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
}

NussinovSettings check_nussinov_options(const Cli& cli, const NussinovArgs& a) {
    if (a.min_loop < 0 || a.min_loop > (int64_t{1} << 30))
        throw UsageError("--min-loop must be a whole number from 0 to 2^30, not " + std::to_string(a.min_loop));
    NussinovSettings s;
    s.params.min_loop = static_cast<int>(a.min_loop);
    s.params.gu = !a.no_gu;
    if (cli.vm().count("weights")) parse_nussinov_weights(a.weights, s.params);
    s.format = parse_nussinov_format(cli.common().format);
    if (s.format == NussinovFormat::vienna && a.no_structure)
        throw UsageError("--no-structure applies to --format tsv and jsonl (vienna prints the structure)");
    refuse_shared_paths({{"--in", a.in}}, {cli.common().output_path(), {"--stats", a.stats}});
    return s;
}

}  // namespace warpdp
