// gpu-viterbi's options, their checks and the pipeline settings.
#include "tools/hmmer/viterbi_options.hpp"

#include <algorithm>

#include "core/base/errors.hpp"
#include "core/io/distinct_paths.hpp"

namespace warpdp {

namespace po = boost::program_options;

void add_viterbi_options(Cli& cli, ViterbiArgs& a) {
    cli.tool_options().add_options()
        ("hmm", po::value<std::string>(&a.hmm)->required(), "profile HMM file (the one gpu-msv used)")
        ("db", po::value<std::string>(&a.db)->required(), "protein FASTA/FASTQ (the one gpu-msv read)")
        ("candidates", po::value<std::string>(&a.candidates), "gpu-msv output (TSV or JSONL, plain or gzip; - for stdin)")
        ("F2", po::value<HmmerReal>(&a.F2)->default_value(a.F2, "0.001"), "Viterbi filter P-value threshold")
        ("msv", po::bool_switch(&a.msv), "run the MSV and bias filters here (as gpu-msv would) instead of reading --candidates")
        ("F1", po::value<HmmerReal>(&a.F1)->default_value(a.F1, "0.02"), "with --msv: MSV filter P-value threshold")
        ("nobias", po::bool_switch(&a.nobias), "with --msv: turn off the composition bias filter")
        ("forward", po::bool_switch(&a.forward),
         "also run hmmsearch's Forward filter on the Viterbi-stage passers (adds fwd_bits, fwd_pvalue, "
         "fwd_passed; the survivors are then the Forward passers)")
        ("F3", po::value<HmmerReal>(&a.F3)->default_value(a.F3, "1e-05"), "with --forward: Forward filter P-value threshold")
        ("all", po::bool_switch(&a.all), "a row for every candidate (every target without --candidates)")
        ("survivors", po::value<std::string>(&a.survivors), "write the passing targets (each once, database order) as FASTA")
        ("model-survivors", po::value<std::string>(&a.model_survivors),
         "also write each model's survivors, chunk by chunk, to DIR/<i>.fa (i: the model's position in the "
         "file, from 1), for a final hmmsearch per model that reads them as they come (FIFOs)")
        ("spread", po::value<size_t>(&a.spread)->default_value(0),
         "for a final hmmsearch: cut each model's survivors (with --model-survivors: in each chunk) into about N "
         "runs of equal expected work, each topped up to 1,000 records with empty ones (hmmsearch skips them), "
         "so its threads share the work; 0: off")
        ("in-place", po::bool_switch(&a.in_place),
         "for a final hmmsearch without -Z: write each survivor at its place in the database, an empty record "
         "standing for every other target, so that hmmsearch counts the targets as it reads them as plain "
         "hmmsearch does (and keeps the same hits, which size its name columns); excludes --spread")
        ("stats", po::value<std::string>(&a.stats), "also write the run summary as JSON to FILE")
        ("chunk-residues", po::value<uint64_t>(&a.chunk_residues)->default_value(0),
         "database residues held at once (0 = automatic)");
    cli.positional().add("hmm", 1).add("db", 1);
}

void check_viterbi_options(const Cli& cli, const ViterbiArgs& a) {
    check_viterbi_args(a, !cli.vm()["F1"].defaulted(), !cli.vm()["F3"].defaulted());
    refuse_shared_paths({{"--hmm", a.hmm}, {"--db", a.db}, {"--candidates", a.candidates}},
                        {cli.common().output_path(), {"--stats", a.stats}, {"--survivors", a.survivors}});
}

void check_viterbi_args(const ViterbiArgs& a, bool f1_given, bool f3_given) {
    if (!a.forward && f3_given) throw UsageError("--F3 goes with --forward");
    if (a.msv && !a.candidates.empty()) throw UsageError("--msv and --candidates are mutually exclusive");
    if (!a.msv && (f1_given || a.nobias))
        throw UsageError("--F1 and --nobias go with --msv (with --candidates, gpu-msv applied them)");
    if (a.candidates == "-" && a.db == "-") throw UsageError("--candidates and --db cannot both be stdin");
    if (a.hmm == "-" && (a.db == "-" || a.candidates == "-"))
        throw UsageError(std::string("--hmm and ") + (a.db == "-" ? "--db" : "--candidates") + " cannot both be stdin");
    check_at_most("--spread", a.spread, 1 << 20);
    check_at_most("--chunk-residues", a.chunk_residues, uint64_t{1} << 40);
    if ((a.spread > 0 || a.in_place) && a.survivors.empty() && a.model_survivors.empty())
        throw UsageError(std::string(a.in_place ? "--in-place" : "--spread") + " goes with --survivors or --model-survivors");
    if (a.spread > 0 && a.in_place) throw UsageError("--spread and --in-place exclude each other");
}

FilterSettings viterbi_filter_settings(const ViterbiArgs& a, const CommonOptions& common, const std::string& tool) {
    FilterSettings settings;
    settings.F1 = std::min(a.F1.value, 1.0);
    settings.F2 = std::min(a.F2.value, 1.0);
    settings.F3 = std::min(a.F3.value, 1.0);
    settings.inline_msv = a.msv;
    settings.nobias = a.nobias;
    settings.forward = a.forward;
    settings.all = a.all;
    settings.common = common;
    settings.chunk_residues = a.chunk_residues;
    settings.tool = tool;
    settings.db_path = a.db;
    settings.cand_name = a.candidates == "-" ? "<stdin>" : a.candidates;
    return settings;
}

}  // namespace warpdp
