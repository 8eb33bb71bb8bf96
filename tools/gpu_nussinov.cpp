// gpu-nussinov: Nussinov folding (docs/nussinov.md) of every RNA of a FASTA
// file, on GPUs or the CPU: the best score under the pair weights and the
// structure the one traceback rule picks, one result a sequence in input
// order, as TSV, JSON Lines or RNAfold's layout.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/io/distinct_paths.hpp"
#include "core/io/output_file.hpp"
#include "core/io/seq_reader.hpp"
#include "core/nussinov/nussinov_cpu.hpp"
#include "core/nussinov/nussinov_engine.hpp"
#include "core/nussinov/rna_codes.hpp"
#include "kernels/nussinov/nussinov_cuda.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/device_choice.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/nussinov/nussinov_output.hpp"

using namespace warpdp;
namespace po = boost::program_options;

namespace {

constexpr const char* kTool = "gpu-nussinov";

struct Args {
    std::string in, weights, stats;
    int64_t min_loop = 1;
    bool no_structure = false, no_gu = false, strict = false;
};

double steps_of(uint64_t n) { return (static_cast<double>(n) * n * n - static_cast<double>(n)) / 6; }

// The CPU engine's memory plan, checked record by record so that the
// refusal names the record (docs/nussinov.md §7).
void check_cpu_memory(const std::string& name, uint64_t n, const NussinovParams& p, uint64_t budget) {
    const uint64_t bytes = nussinov_cpu_table_bytes(n, p);
    if (bytes <= budget) return;
    char need[32], have[32];
    std::snprintf(need, sizeof need, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
    std::snprintf(have, sizeof have, "%.1f GiB", static_cast<double>(budget) / (1ull << 30));
    throw ResourceError("sequence " + quoted_name(name) + " (" + std::to_string(n) + " bases) needs " + need +
                        " for the CPU engine's table, more than the " + have + " it may take on this host: " +
                        "sequences up to " + std::to_string(nussinov_cpu_max_length(p, budget)) + " bases fit");
}

// Rethrows the error being handled, an engine's refusal of one sequence of
// `batch` with that sequence's name.
[[noreturn]] void rethrow_naming(const SeqBatch& batch) {
    try {
        throw;
    } catch (const NussinovSequenceError& e) {
        throw ResourceError("sequence " + quoted_name(batch.names.at(e.index())) + ": " + e.what());
    }
}

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-nussinov --in RNAS.fa [options]",
            "Nussinov folding of RNAs: the maximum-weight non-crossing base pairing of each sequence and its "
            "dot-bracket structure (docs/nussinov.md).");
    Args a;
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
    cli.set_formats({"tsv", "jsonl", "vienna"});
    if (!cli.parse(argc, argv)) return 0;
    const auto& common = cli.common();
    if (a.min_loop < 0 || a.min_loop > (int64_t{1} << 30))
        throw UsageError("--min-loop must be a whole number from 0 to 2^30, not " + std::to_string(a.min_loop));
    NussinovParams params;
    params.min_loop = static_cast<int>(a.min_loop);
    params.gu = !a.no_gu;
    if (cli.vm().count("weights")) parse_nussinov_weights(a.weights, params);
    const NussinovFormat format = parse_nussinov_format(common.format);
    if (format == NussinovFormat::vienna && a.no_structure)
        throw UsageError("--no-structure applies to --format tsv and jsonl (vienna prints the structure)");
    const bool with_structure = !a.no_structure;
    refuse_shared_paths({{"--in", a.in}}, {common.output_path(), {"--stats", a.stats}});

    hide_unused_gpus(common.device, std::numeric_limits<double>::infinity());  // only an explicit list narrows
    const DeviceChoice dev = resolve_device(common.device);
    std::unique_ptr<NussinovEngine> engine =
        dev.cuda ? make_nussinov_cuda_engine(dev.gpus) : make_nussinov_cpu_engine(common.threads);
    std::unique_ptr<NussinovEngine> cpu_fallback;  // --device auto: what the GPUs cannot hold
    const uint64_t budget = nussinov_cpu_memory_budget();

    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    SeqReaderOptions ropt;
    ropt.parse_threads = common.threads;
    const Alphabet& abc = a.strict ? Alphabet::rna_acgu() : Alphabet::rna();
    SeqReader reader(a.in, abc, ropt);
    OutputFile out(common.output);
    std::optional<OutputFile> stats_file;
    if (!a.stats.empty()) stats_file.emplace(a.stats);
    NussinovWriter writer(out, format, with_structure);

    SeqBatch batch;
    uint64_t sequences = 0, bases = 0, other = 0;
    double steps = 0, engine_s = 0;
    std::string first_other;  // the first record with a letter that never pairs
    // Results wait for the end of the input when they go to stdout, so that
    // bad input there leaves nothing half-written (-o is atomic already).
    struct Row {
        std::string name, desc, letters;
        uint64_t length;
        NussinovFold fold;
    };
    std::vector<Row> pending;
    const bool to_stdout = common.output.empty() || common.output == "-";
    auto write_pending = [&] {
        for (const Row& r : pending) writer.write(r.name, r.desc, r.letters, r.length, r.fold);
        pending.clear();
    };
    if (!to_stdout) writer.header();
    std::vector<std::span<const uint8_t>> seqs;
    std::vector<NussinovFold> folds;
    std::string ran_on = engine->name();
    for (;;) {
        bool more;
        try {
            more = reader.next(batch);
        } catch (const InputError& e) {
            if (!a.strict) throw;
            throw InputError(e.file(), e.line(), e.message() + " (--strict accepts A, C, G, U and T only)");
        }
        if (!more) break;
        // Letters as RNAfold prints them, before the codes become engine codes.
        std::vector<std::string> shown;
        if (format == NussinovFormat::vienna) {
            shown.resize(batch.size());
            for (size_t r = 0; r < batch.size(); ++r)
                for (uint8_t c : batch.seq(r)) shown[r] += abc.symbol(c);
        }
        seqs.clear();
        for (size_t r = 0; r < batch.size(); ++r) {
            const uint64_t o = batch.offsets[r];
            const std::span<uint8_t> s(batch.residues.data() + o, static_cast<size_t>(batch.length(r)));
            const uint64_t k = to_rna_engine_codes(s);
            if (k && other == 0) first_other = batch.names[r];
            other += k;
            bases += s.size();
            steps += steps_of(s.size());
            if (!dev.cuda) check_cpu_memory(batch.names[r], s.size(), params, budget);
            seqs.push_back(s);
        }
        folds.assign(batch.size(), {});
        const auto e0 = clock::now();
        try {
            engine->fold(seqs, params, with_structure, folds);
        } catch (const ResourceError& e) {
            if (!dev.cuda || common.device != "auto") rethrow_naming(batch);
            // --device auto: a sequence too long for the GPUs folds on the CPU if the host holds it.
            for (size_t r = 0; r < batch.size(); ++r) check_cpu_memory(batch.names[r], seqs[r].size(), params, budget);
            if (!common.quiet) warn(kTool, std::string(e.what()) + "; folding this batch on the CPU");
            if (!cpu_fallback) cpu_fallback = make_nussinov_cpu_engine(common.threads);
            try {
                cpu_fallback->fold(seqs, params, with_structure, folds);
            } catch (...) {
                rethrow_naming(batch);
            }
            if (ran_on.find('+') == std::string::npos) ran_on += "+" + cpu_fallback->name();
        }
        engine_s += std::chrono::duration<double>(clock::now() - e0).count();
        for (size_t r = 0; r < batch.size(); ++r)
            pending.push_back({std::move(batch.names[r]), std::move(batch.descs[r]),
                               shown.empty() ? std::string() : std::move(shown[r]), seqs[r].size(), std::move(folds[r])});
        if (!to_stdout) write_pending();
        sequences += batch.size();
        if (common.progress)
            std::fprintf(stderr, "\r%s: %llu sequences, %llu bases   ", kTool, static_cast<unsigned long long>(sequences),
                         static_cast<unsigned long long>(bases));
    }
    if (common.progress) std::fputc('\n', stderr);
    if (sequences == 0) throw InputError(a.in, 0, "no sequences");
    if (to_stdout) writer.header();
    write_pending();
    // Every output written and flushed before any is committed: a --stats
    // file that cannot be written (disk full) leaves no -o behind either.
    const double seconds = std::chrono::duration<double>(clock::now() - t0).count();
    if (stats_file) {
        nlohmann::ordered_json s;
        s["tool"] = kTool;
        s["device"] = dev.describe();
        s["engine"] = ran_on;
        s["sequences"] = sequences;
        s["bases"] = bases;
        s["other_letters"] = other;
        s["min_loop"] = params.min_loop;
        s["gu"] = params.gu;
        s["weights"] = {{"GC", params.w_gc}, {"AU", params.w_au}, {"GU", params.w_gu}};
        s["structure"] = with_structure;
        s["seconds"] = seconds;
        s["engine_seconds"] = engine_s;
        s["steps"] = steps;
        s["steps_per_second"] = engine_s > 0 ? steps / engine_s : 0.0;
        stats_file->write(s.dump(2) + "\n");
        stats_file->flush();
    }
    out.commit();
    if (stats_file) stats_file->commit();
    if (other && !common.quiet)
        warn(kTool, a.in + ": " + std::to_string(other) + " letter" + (other == 1 ? "" : "s") +
                        " other than A, C, G, U and T (IUPAC codes such as N, gaps) never pair, the first in record " +
                        quoted_name(first_other) + " (--strict rejects them)");
    if (!common.quiet)
        std::fprintf(stderr, "%s: %llu sequences, %llu bases, device %s (%s), %.3f s, %.4f T steps/s in the engine (%.3f s)\n",
                     kTool, static_cast<unsigned long long>(sequences), static_cast<unsigned long long>(bases),
                     dev.describe().c_str(), ran_on.c_str(), seconds, engine_s > 0 ? steps / engine_s / 1e12 : 0.0,
                     engine_s);
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return run_tool(kTool, argc, argv, run); }
