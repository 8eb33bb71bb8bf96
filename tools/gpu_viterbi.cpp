// gpu-viterbi: HMMER 3.3.2's Viterbi filter, with hmmsearch's exact scores,
// P-values and pipeline decisions. Fed by gpu-msv's candidate stream it
// applies the pipeline rule (a candidate whose bias-corrected MSV P-value is
// already <= F2 skips the filter and passes); without one it runs the filter
// on every target ("Viterbi alone", null-model scores). With --msv it runs
// gpu-msv's MSV and bias filters itself first (one database read, one GPU
// start-up for the whole pipeline). With --forward the Viterbi-stage
// survivors also go through hmmsearch's Forward filter (F3), exactly.
// --survivors writes the passing targets as FASTA for `hmmsearch -Z <Z>`.
// The filters themselves are tools/hmmer/filter_pipeline.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/base/trace.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/pipeline/candidate_stream.hpp"
#include "core/hmmer/pipeline/survivors_file.hpp"
#include "core/io/distinct_paths.hpp"
#include "core/io/output_file.hpp"
#include "core/io/record_writer.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/device_choice.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/hmmer/filter_pipeline.hpp"
#include "tools/hmmer/hmmer_costs.hpp"
#include "tools/hmmer/hmmer_real.hpp"

using namespace warpdp;
namespace po = boost::program_options;

namespace {

constexpr const char* kTool = "gpu-viterbi";

const std::vector<std::string> kColumns{"model", "model_acc", "target", "target_len",
                                        "vit_bits", "vit_pvalue", "skipped", "passed"};
const std::vector<std::string> kForwardColumns{"fwd_bits", "fwd_pvalue", "fwd_passed"};

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-viterbi --hmm MODELS.hmm --db TARGETS.fa [--candidates FILE|-] [options]",
            "HMMER 3.3.2 Viterbi filter and pipeline rule (hmmsearch-identical) on GPU or CPU.");
    std::string hmm_path, db_path, cand_path, surv_path, surv_dir, stats_path;
    HmmerReal F2_opt{1e-3}, F1_opt{0.02}, F3_opt{1e-5};
    size_t spread = 0;
    uint64_t chunk_residues_opt = 0;
    bool all = false, inline_msv = false, nobias = false, forward = false, in_place = false;
    cli.tool_options().add_options()
        ("hmm", po::value<std::string>(&hmm_path)->required(), "profile HMM file (the one gpu-msv used)")
        ("db", po::value<std::string>(&db_path)->required(), "protein FASTA/FASTQ (the one gpu-msv read)")
        ("candidates", po::value<std::string>(&cand_path), "gpu-msv output (TSV or JSONL; - for stdin)")
        ("F2", po::value<HmmerReal>(&F2_opt)->default_value(F2_opt, "0.001"), "Viterbi filter P-value threshold")
        ("msv", po::bool_switch(&inline_msv), "run the MSV and bias filters here (as gpu-msv would) instead of reading --candidates")
        ("F1", po::value<HmmerReal>(&F1_opt)->default_value(F1_opt, "0.02"), "with --msv: MSV filter P-value threshold")
        ("nobias", po::bool_switch(&nobias), "with --msv: turn off the composition bias filter")
        ("forward", po::bool_switch(&forward),
         "also run hmmsearch's Forward filter on the Viterbi-stage passers (adds fwd_bits, fwd_pvalue, "
         "fwd_passed; the survivors are then the Forward passers)")
        ("F3", po::value<HmmerReal>(&F3_opt)->default_value(F3_opt, "1e-05"), "with --forward: Forward filter P-value threshold")
        ("all", po::bool_switch(&all), "a row for every candidate (every target without --candidates)")
        ("survivors", po::value<std::string>(&surv_path), "write the passing targets (each once, database order) as FASTA")
        ("model-survivors", po::value<std::string>(&surv_dir),
         "also write each model's survivors, chunk by chunk, to DIR/<i>.fa (i: the model's position in the "
         "file, from 1), for a final hmmsearch per model that reads them as they come (FIFOs)")
        ("spread", po::value<size_t>(&spread)->default_value(0),
         "for a final hmmsearch: cut each model's survivors (with --model-survivors: in each chunk) into about N "
         "runs of equal expected work, each topped up to 1,000 records with empty ones (hmmsearch skips them), "
         "so its threads share the work; 0: off")
        ("in-place", po::bool_switch(&in_place),
         "for a final hmmsearch without -Z: write each survivor at its place in the database, an empty record "
         "standing for every other target, so that hmmsearch counts the targets as it reads them as plain "
         "hmmsearch does (and keeps the same hits, which size its name columns); excludes --spread")
        ("stats", po::value<std::string>(&stats_path), "also write the run summary as JSON to FILE")
        ("chunk-residues", po::value<uint64_t>(&chunk_residues_opt)->default_value(0),
         "database residues held at once (0 = automatic)");
    if (!cli.parse(argc, argv)) return 0;
    const auto& common = cli.common();
    // Any threshold, as hmmsearch takes it: a target passes unless its
    // P-value is above (so NaN passes all, and 0 or less only P = 0 or NaN);
    // above 1 is 1.
    const double F1 = std::min(F1_opt.value, 1.0);
    const double F2 = std::min(F2_opt.value, 1.0);
    const double F3 = std::min(F3_opt.value, 1.0);
    if (!forward && !cli.vm()["F3"].defaulted()) throw UsageError("--F3 goes with --forward");
    if (inline_msv && !cand_path.empty()) throw UsageError("--msv and --candidates are mutually exclusive");
    if (!inline_msv && (cli.vm()["F1"].defaulted() == false || nobias))
        throw UsageError("--F1 and --nobias go with --msv (with --candidates, gpu-msv applied them)");
    if (cand_path == "-" && db_path == "-") throw UsageError("--candidates and --db cannot both be stdin");
    check_at_most("--spread", spread, 1 << 20);
    check_at_most("--chunk-residues", chunk_residues_opt, uint64_t{1} << 40);
    if ((spread > 0 || in_place) && surv_path.empty() && surv_dir.empty())
        throw UsageError(std::string(in_place ? "--in-place" : "--spread") + " goes with --survivors or --model-survivors");
    if (spread > 0 && in_place) throw UsageError("--spread and --in-place exclude each other");
    refuse_shared_paths({{"--hmm", hmm_path}, {"--db", db_path}, {"--candidates", cand_path}},
                        {common.output_path(), {"--stats", stats_path}, {"--survivors", surv_path}});

    std::vector<FilterModel> models;
    std::map<std::string, size_t> by_name;
    std::vector<std::string> names;
    std::set<std::string> shared_names;  // held by more than one model
    for (auto& hmm : read_all_hmms(hmm_path)) {
        if (hmm.alph != AlphabetKind::amino)
            throw InputError(hmm_path, 0, "model \"" + hmm.name + "\" is " +
                                              std::string(Alphabet::of(hmm.alph).name()) +
                                              "; gpu-viterbi searches protein databases with amino models");
        if (!hmm.has_stats && !common.quiet)
            warn(kTool, "model \"" + hmm.name + "\" has no STATS lines: like hmmsearch, no target passes");
        if (!by_name.emplace(hmm.name, models.size()).second) shared_names.insert(hmm.name);
        names.push_back(hmm.name);
        models.emplace_back(std::move(hmm));
    }
    if (models.empty()) throw InputError(hmm_path, 0, "no HMM found");

    const std::string cand_name = cand_path == "-" ? "<stdin>" : cand_path;
    std::vector<FilterCandidates> candidates(models.size());
    if (!cand_path.empty()) {
        CandidateStream stream = read_candidates(cand_path);
        if (stream.blank && !common.quiet)
            warn(kTool, cand_name + " is empty: no candidates (gpu-msv's tsv starts with a header line even then)");
        for (auto& c : stream.rows) {
            if (!c.passed) continue;  // rows of `gpu-msv --all` that failed there
            size_t mi = 0;
            if (c.model_index) {
                if (*c.model_index >= models.size())
                    throw InputError(cand_name, c.line, "model_index " + std::to_string(*c.model_index) + ", but " +
                                                            hmm_path + " holds " + std::to_string(models.size()) +
                                                            " models (a different model file?)");
                mi = static_cast<size_t>(*c.model_index);
                if (!stream_name_is(c, c.model, names[mi]))
                    throw InputError(cand_name, c.line, "model_index " + std::to_string(mi) + " is \"" + names[mi] +
                                                            "\" in " + hmm_path + " but \"" + c.model +
                                                            "\" in the candidates (a different model file?)");
            } else {
                auto it = by_name.find(c.model);
                if (it == by_name.end() && c.from_json)
                    it = std::find_if(by_name.begin(), by_name.end(),
                                      [&](const auto& kv) { return stream_name_is(c, c.model, kv.first); });
                if (it == by_name.end())
                    throw InputError(cand_name, c.line, "unknown model \"" + c.model + "\" (not in " + hmm_path + ")");
                if (shared_names.count(it->first))
                    throw InputError(cand_name, c.line, "more than one model in " + hmm_path + " is named \"" +
                                                            it->first + "\": the stream needs gpu-msv's model_index column");
                mi = it->second;
            }
            candidates[mi].list.push_back(std::move(c));
        }
    }

    // The GPU work of the stage that meets the most targets: inline MSV over
    // the database, or the Viterbi filter (~5x MSV's cost a cell) over the
    // candidates or the database.
    {
        uint64_t sum_m = 0, cand_cells = 0;
        for (size_t mi = 0; mi < models.size(); ++mi) {
            sum_m += static_cast<uint64_t>(models[mi].msv.hmm.M);
            for (const auto& c : candidates[mi].list)
                cand_cells += c.target_len * static_cast<uint64_t>(models[mi].msv.hmm.M);
        }
        const double msv_s = msv_seconds_on_one_gpu(db_path, sum_m);
        hide_unused_gpus(common.device, inline_msv            ? msv_s
                                        : cand_path.empty()   ? 5 * msv_s
                                                              : 5 * static_cast<double>(cand_cells) / 1e13);
    }
    FilterSettings settings;
    settings.F1 = F1;
    settings.F2 = F2;
    settings.F3 = F3;
    settings.inline_msv = inline_msv;
    settings.nobias = nobias;
    settings.forward = forward;
    settings.all = all;
    settings.device = common.device;
    settings.threads = common.threads;
    settings.chunk_residues = chunk_residues_opt;
    settings.progress = common.progress;
    settings.tool = kTool;
    settings.db_path = db_path;
    settings.cand_name = cand_name;
    // Every output is opened before the work (a path that cannot be written
    // fails now) and committed together at the end.
    OutputFile out(common.output);
    std::optional<OutputFile> stats_file;
    if (!stats_path.empty()) stats_file.emplace(stats_path);
    std::unique_ptr<SurvivorsFile> survivors;
    const SurvivorsLayout layout{spread, in_place};
    if (!surv_path.empty()) survivors = std::make_unique<SurvivorsFile>(surv_path, layout);
    std::unique_ptr<ModelSurvivorStreams> model_survivors;
    if (!surv_dir.empty()) model_survivors = std::make_unique<ModelSurvivorStreams>(surv_dir, models.size(), layout);
    // The engines live until the end: their teardown comes after our stdout is closed.
    FilterPipeline filters(models, settings);
    const FilterRun res = filters.run(cand_path.empty() ? nullptr : &candidates, survivors.get(), model_survivors.get());
    // Each model's final search (gpu-hmmsearch) finishes its last record only
    // at the end of its file: ended now, before the rows are written. These
    // files are gpu-hmmsearch's own, not outputs a user asked for.
    if (model_survivors) model_survivors->commit(res.targets);
    const auto& rows = res.rows;
    const auto& tally = res.tally;

    nlohmann::ordered_json stats;
    stats["tool"] = kTool;
    stats["device"] = res.device;
    stats["engine"] = res.engine;
    stats["chunks_on_cpu_while_starting"] = res.cpu_chunks;
    stats["Z"] = res.targets;
    stats["targets_over_100k"] = res.overlong.count();
    stats["residues"] = res.residues;
    stats["seconds"] = res.seconds;
    stats["stage_seconds"] = {{"read_wait", res.read_wait_s}, {"engines", res.engines_s}, {"msv", res.msv_s},
                              {"viterbi", res.vit_s}, {"forward", res.fwd_s}, {"survivors", res.survivors_s}};
    stats["cells"] = res.cells;
    stats["forward"] = forward;
    if (forward) {
        stats["F3"] = F3;
        stats["forward_cells"] = res.fwd_cells;
        stats["forward_engine"] = res.fwd_engine;
    }
    stats["models"] = nlohmann::ordered_json::array();
    for (size_t mi = 0; mi < models.size(); ++mi) {
        stats["models"].push_back({{"model", models[mi].msv.hmm.name}, {"M", models[mi].msv.hmm.M},
                                   {"candidates", tally[mi].candidates}, {"skipped", tally[mi].skipped},
                                   {"computed", tally[mi].computed}, {"passed_vit", tally[mi].passed}});
        if (forward) stats["models"].back()["passed_fwd"] = tally[mi].passed_fwd;
    }
    if (!common.quiet) {
        if (res.overlong.count()) warn(kTool, res.overlong.warning(db_path));
        for (size_t mi = 0; mi < models.size(); ++mi)
            std::fprintf(stderr, "%s: %s (M=%d): candidates %llu, skipped (MSV P <= F2) %llu, passed Vit %llu%s\n",
                         kTool, models[mi].msv.hmm.name.c_str(), models[mi].msv.hmm.M,
                         static_cast<unsigned long long>(tally[mi].candidates),
                         static_cast<unsigned long long>(tally[mi].skipped),
                         static_cast<unsigned long long>(tally[mi].passed),
                         forward ? (", passed Fwd " + std::to_string(tally[mi].passed_fwd)).c_str() : "");
        std::fprintf(stderr, "%s: Z = %llu targets, %.3f s, %llu Viterbi cells\n", kTool,
                     static_cast<unsigned long long>(res.targets), res.seconds,
                     static_cast<unsigned long long>(res.cells));
    }
    // The files before stdout: a reader that stops early (`| head`) ends the
    // run quietly (BrokenPipe), and must not cost --survivors or --stats.
    if (survivors) survivors->commit(res.targets);
    if (stats_file) {
        stats_file->write(stats.dump(2) + "\n");
        stats_file->commit();
    }
    std::vector<std::string> columns = kColumns;
    if (forward) columns.insert(columns.end(), kForwardColumns.begin(), kForwardColumns.end());
    RecordWriter writer(out, parse_format(common.format), columns);
    writer.write_header();
    for (size_t mi = 0; mi < models.size(); ++mi) {
        const Hmm& h = models[mi].msv.hmm;
        for (const FilterRow& r : rows[mi]) {
            std::vector<Value> row{h.name, h.acc.empty() ? Value{Absent{}} : Value{h.acc}, r.name,
                                   static_cast<int64_t>(r.length),
                                   r.scored ? Value{fixed(r.bits, 6)} : Value{Absent{}},
                                   r.scored ? Value{general(r.pvalue, 6)} : Value{Absent{}},
                                   int64_t{r.skipped ? 1 : 0}, int64_t{r.passed ? 1 : 0}};
            if (forward) {
                row.push_back(r.fwd_scored ? Value{fixed(r.fwd_bits, 6)} : Value{Absent{}});
                row.push_back(r.fwd_scored ? Value{general(r.fwd_pvalue, 6)} : Value{Absent{}});
                row.push_back(int64_t{r.fwd_passed ? 1 : 0});
            }
            writer.write(row);
        }
    }
    out.commit();
    trace_event("stdout-closed");
    finish_stdout();  // a pipeline waiting on our stdout goes on while the engines are freed
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return run_tool(kTool, argc, argv, run); }
