// gpu-msv: HMMER 3.3.2's MSV (SSV fast path) and bias filters for profile
// HMM(s) against a protein database, with hmmsearch's exact scores, P-values
// and decisions, on a GPU or the CPU. Its TSV/JSONL rows are the candidate
// stream gpu-viterbi reads.
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/hmmer/background.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/msv/msv_cpu.hpp"
#include "core/hmmer/msv/msv_engine.hpp"
#include "core/hmmer/msv/msv_search.hpp"
#include "core/hmmer/pipeline/overlong_targets.hpp"
#include "core/io/distinct_paths.hpp"
#include "core/io/output_file.hpp"
#include "core/io/record_writer.hpp"
#include "core/io/seq_reader.hpp"
#include "kernels/msv/msv_cuda.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/device_choice.hpp"
#include "tools/common/engine_start.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/hmmer/hmmer_costs.hpp"
#include "tools/hmmer/hmmer_real.hpp"
#include "tools/hmmer/msv_stage.hpp"

using namespace warpdp;
namespace po = boost::program_options;

namespace {

constexpr const char* kTool = "gpu-msv";

struct Args {
    std::string hmm, db, stats;
    HmmerReal F1{0.02};
    bool nobias = false, all = false;
    uint64_t chunk_residues = 0;
};

std::vector<MsvModel> load_models(const std::string& path, bool quiet) {
    std::vector<MsvModel> models;
    for (auto& hmm : read_all_hmms(path)) {
        if (hmm.alph != AlphabetKind::amino)
            throw InputError(path, 0, "model \"" + hmm.name + "\" is " +
                                          std::string(Alphabet::of(hmm.alph).name()) +
                                          "; gpu-msv searches protein databases with amino models");
        if (!hmm.has_stats && !quiet)
            warn(kTool, "model \"" + hmm.name + "\" has no STATS lines (not calibrated): like hmmsearch, "
                        "every P-value is 1 and no target passes");
        models.emplace_back(std::move(hmm));
    }
    return models;
}

// model_index and target_index (places in the files, from 0) let gpu-viterbi
// tell apart models or targets that share a name, as hmmsearch does.
const std::vector<std::string> kColumns{"model",      "model_acc", "target",      "target_len",  "msv_bits",
                                        "msv_pvalue", "bias_bits", "bias_pvalue", "passed",      "model_index",
                                        "target_index"};

std::vector<Value> row_values(const MsvModel& m, size_t model_index, const MsvRow& r, const std::string& target,
                              bool bias_on) {
    std::vector<Value> v;
    v.reserve(kColumns.size());
    v.emplace_back(m.hmm.name);
    v.emplace_back(m.hmm.acc.empty() ? Value{Absent{}} : Value{m.hmm.acc});
    v.emplace_back(target);
    v.emplace_back(static_cast<int64_t>(r.length));
    if (r.scored) {
        v.emplace_back(fixed(r.v.msv_bits, 6));
        v.emplace_back(general(r.v.msv_p, 6));
    } else {
        v.emplace_back(Absent{});
        v.emplace_back(Absent{});
    }
    if (bias_on && r.bias_scored) {
        v.emplace_back(fixed(r.v.bias_bits, 6));
        v.emplace_back(general(r.v.bias_p, 6));
    } else {
        v.emplace_back(Absent{});
        v.emplace_back(Absent{});
    }
    v.emplace_back(int64_t{r.passed ? 1 : 0});
    v.emplace_back(static_cast<int64_t>(model_index));
    v.emplace_back(static_cast<int64_t>(r.target));
    return v;
}

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-msv --hmm MODELS.hmm --db TARGETS.fa [options]",
            "HMMER 3.3.2 MSV + bias filter (hmmsearch-identical scores and decisions) on GPU or CPU.");
    Args a;
    cli.tool_options().add_options()
        ("hmm", po::value<std::string>(&a.hmm)->required(), "profile HMM file (HMMER3 ASCII, plain or gzip)")
        ("db", po::value<std::string>(&a.db)->required(), "protein FASTA/FASTQ (plain, gzip, bgzip or - for stdin)")
        ("F1", po::value<HmmerReal>(&a.F1)->default_value(HmmerReal{0.02}, "0.02"), "MSV filter P-value threshold")
        ("nobias", po::bool_switch(&a.nobias), "turn off the composition bias filter")
        ("all", po::bool_switch(&a.all), "a row for every target, not only survivors")
        ("stats", po::value<std::string>(&a.stats), "also write the run summary as JSON to FILE")
        ("chunk-residues", po::value<uint64_t>(&a.chunk_residues)->default_value(0),
         "database residues held at once (0 = automatic)");
    if (!cli.parse(argc, argv)) return 0;
    const auto& common = cli.common();
    check_at_most("--chunk-residues", a.chunk_residues, uint64_t{1} << 40);
    refuse_shared_paths({{"--hmm", a.hmm}, {"--db", a.db}}, {common.output_path(), {"--stats", a.stats}});
    // Any threshold, as hmmsearch takes it (clamped to 1; NaN passes all).
    const double F1 = std::min(a.F1.value, 1.0);

    const auto models = load_models(a.hmm, common.quiet);
    if (models.empty()) throw InputError(a.hmm, 0, "no HMM found");
    uint64_t sum_m = 0;
    for (const auto& m : models) sum_m += static_cast<uint64_t>(m.bytes.M);
    hide_unused_gpus(common.device, msv_seconds_on_one_gpu(a.db, sum_m));
    SeqReaderOptions ropt;
    if (a.chunk_residues) ropt.batch_residues = a.chunk_residues;
    else ropt.batch_residues = chunk_residues_for(sum_m);  // the reader parses the next chunk meanwhile
    ropt.batch_records = static_cast<size_t>(ropt.batch_residues / 16 + 1024);
    ropt.parse_threads = common.threads;  // the same records for any number
    ropt.max_record_residues = kHmmerMaxTargetLength;  // beyond, the null model is -inf
    // Starting the CUDA driver, listing the GPUs (resolve_device) and creating
    // the contexts take a good part of a second: done off this thread while
    // the reader parses the first chunk (tools/common/engine_start.hpp).
    // Every output is opened before the work (a path that cannot be written
    // fails now) and committed together at the end.
    OutputFile out(common.output);
    std::optional<OutputFile> stats_file;
    if (!a.stats.empty()) stats_file.emplace(a.stats);
    SeqReader reader(a.db, Alphabet::amino(), ropt);
    MsvSearchOptions opt;
    opt.F1 = F1;
    opt.bias = !a.nobias;
    opt.all = a.all;
    opt.threads = common.threads;
    using Engine = std::unique_ptr<MsvEngine>;
    ChunkEngines<Engine> engines(
        std::make_unique<EngineStart<Engine>>(
            common.device,
            [threads = common.threads, chunk_residues = ropt.batch_residues](const DeviceChoice& d) {
                auto e = d.cuda ? make_msv_cuda_engine(d.gpus) : make_msv_cpu_engine(threads);
                e->expect_chunk_residues(chunk_residues);
                return e;
            }),
        common.device == "auto", [threads = common.threads] { return make_msv_cpu_engine(threads); });
    std::vector<const MsvModel*> model_ptrs;
    for (const auto& m : models) model_ptrs.push_back(&m);
    MsvStage stage(model_ptrs, opt);

    // Only the names of targets that make a row are kept: a database of 10^8
    // targets would otherwise hold all its names until the end.
    uint64_t ntargets = 0;
    OverlongTargets overlong;
    std::vector<std::vector<std::string>> row_names(models.size());
    uint64_t residues = 0, cells = 0;
    // Cells and engine time count every chunk, whichever engine took it
    // (the CPU's while CUDA starts, too). Wall time by stage: waiting for
    // the reader, loading chunks into the engine, scoring, and the
    // host-side decisions.
    double wait_s = 0, load_s = 0, engine_seconds = 0, decide_s = 0;
    using clock = std::chrono::steady_clock;
    auto since = [](clock::time_point a) { return std::chrono::duration<double>(clock::now() - a).count(); };
    const auto t0 = clock::now();
    SeqBatch chunk;
    for (uint64_t number = 0;; ++number) {
        auto w0 = clock::now();
        if (!reader.next(chunk)) break;
        wait_s += since(w0);
        w0 = clock::now();
        MsvEngine& e = *engines.for_chunk(cpu_finishes_quickly(sum_m * chunk.total_residues(), common.threads));
        load_s += since(w0);
        const auto times = stage.run(chunk, number, e, [&](size_t mi, size_t first_new) {
            const auto& rows = stage.rows(mi);
            for (size_t r = first_new; r < rows.size(); ++r)
                row_names[mi].push_back(chunk.names[static_cast<size_t>(rows[r].target - chunk.first_index)]);
        });
        load_s += times.load_s;
        decide_s += times.decide_s;
        engine_seconds += times.score_s;
        cells += sum_m * chunk.total_residues();
        residues += chunk.total_residues();
        ntargets += chunk.size();
        overlong.add(chunk);
        if (common.progress) {
            const double s = since(t0);
            std::fprintf(stderr, "\r%s: %llu targets, %.3g Mres, %.1f Mres/s   ", kTool,
                         static_cast<unsigned long long>(ntargets),
                         residues / 1e6, residues / 1e6 / std::max(s, 1e-9));
        }
    }
    if (common.progress) std::fputc('\n', stderr);
    if (ntargets == 0) throw InputError(a.db, 0, "no sequences in the database");
    // Which engine ran. When every chunk came before the CUDA engine had
    // started, the CPU's did it all (device "cpu"), and nothing waits for
    // the start-up.
    const std::string ran_on = engines.device_description();
    const std::string engine_name = engines.started() ? (*engines.started())->name() : (*engines.cpu())->name();
    const double seconds = since(t0);

    nlohmann::ordered_json stats;
    stats["tool"] = kTool;
    stats["device"] = ran_on;
    stats["engine"] = engine_name;
    stats["chunks_on_cpu_while_starting"] = engines.cpu_chunks();
    stats["targets"] = ntargets;
    stats["targets_over_100k"] = overlong.count();
    stats["residues"] = residues;
    stats["seconds"] = seconds;
    stats["engine_seconds"] = engine_seconds;
    stats["stage_seconds"] = {{"read_wait", wait_s}, {"load", load_s}, {"score", engine_seconds},
                              {"decide", decide_s}};
    stats["cells"] = cells;
    stats["cells_per_second"] = engine_seconds > 0 ? cells / engine_seconds : 0.0;
    stats["models"] = nlohmann::ordered_json::array();
    for (size_t mi = 0; mi < models.size(); ++mi)
        stats["models"].push_back({{"model", models[mi].hmm.name}, {"M", models[mi].bytes.M},
                                   {"passed_msv", stage.tally(mi).passed_msv},
                                   {"passed_bias", stage.tally(mi).passed_bias}});
    if (!common.quiet) {
        if (overlong.count()) warn(kTool, overlong.warning(a.db));
        for (size_t mi = 0; mi < models.size(); ++mi)
            std::fprintf(stderr, "%s: %s (M=%d): targets %llu, residues %llu, passed MSV %llu, passed bias %llu\n",
                         kTool, models[mi].hmm.name.c_str(), models[mi].bytes.M,
                         static_cast<unsigned long long>(ntargets),
                         static_cast<unsigned long long>(residues),
                         static_cast<unsigned long long>(stage.tally(mi).passed_msv),
                         static_cast<unsigned long long>(stage.tally(mi).passed_bias));
        std::fprintf(stderr, "%s: device %s (%s), %.3f s, %.2f GCUPS (%llu cells in %.3f engine s); "
                     "read wait %.3f s, load %.3f s, decide %.3f s\n", kTool,
                     ran_on.c_str(), engine_name.c_str(), seconds,
                     engine_seconds > 0 ? cells / engine_seconds / 1e9 : 0.0,
                     static_cast<unsigned long long>(cells), engine_seconds, wait_s, load_s, decide_s);
    }
    // The files before stdout: a reader that stops early (`| head`) ends the
    // run quietly (BrokenPipe), and must not cost the --stats file.
    if (stats_file) {
        stats_file->write(stats.dump(2) + "\n");
        stats_file->commit();
    }
    RecordWriter writer(out, parse_format(common.format), kColumns);
    writer.write_header();
    for (size_t mi = 0; mi < models.size(); ++mi)
        for (size_t r = 0; r < stage.rows(mi).size(); ++r)
            writer.write(row_values(models[mi], mi, stage.rows(mi)[r], row_names[mi][r], opt.bias));
    out.commit();
    finish_stdout();  // gpu-viterbi reading our rows goes on while the engines are freed
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return run_tool(kTool, argc, argv, run); }
