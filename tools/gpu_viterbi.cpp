// gpu-viterbi: HMMER 3.3.2's Viterbi filter, with hmmsearch's exact scores,
// P-values and pipeline decisions. Fed by gpu-msv's candidate stream it
// applies the pipeline rule (a candidate whose bias-corrected MSV P-value is
// already <= F2 skips the filter and passes); without one it runs the filter
// on every target ("Viterbi alone", null-model scores). With --msv it runs
// gpu-msv's MSV and bias filters itself first (one database read, one GPU
// start-up for the whole pipeline). With --forward the Viterbi-stage
// survivors also go through hmmsearch's Forward filter (F3), exactly.
// --survivors writes the passing targets as FASTA for `hmmsearch -Z <Z>`.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/alphabet.hpp"
#include "core/background.hpp"
#include "core/candidate_stream.hpp"
#include "core/cli.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/fwd_engine.hpp"
#include "core/fwd_model.hpp"
#include "core/fwd_split.hpp"
#include "core/hmm_reader.hpp"
#include "core/msv_cpu.hpp"
#include "core/msv_model.hpp"
#include "core/output_file.hpp"
#include "core/parallel.hpp"
#include "core/survivors_file.hpp"
#include "core/record_writer.hpp"
#include "core/seq_reader.hpp"
#include "core/tool_main.hpp"
#include "core/vit_engine.hpp"
#include "core/vit_model.hpp"

using namespace warpdp;
namespace po = boost::program_options;

namespace {

constexpr const char* kTool = "gpu-viterbi";

struct Model {
    MsvModel msv;
    VitModel vit;
    FwdProfile fwd;
    explicit Model(Hmm h) : msv(std::move(h)), vit(msv), fwd(build_fwd_profile(msv.prof)) {}
};

struct Row {
    std::string name;  // set once the row is kept
    uint64_t target = 0, length = 0;
    bool scored = false, skipped = false, passed = false;
    float bits = 0;
    double pvalue = 1;
    bool fwd_scored = false, fwd_passed = false;  // with --forward, for Viterbi-stage passers
    float fwd_bits = 0;
    double fwd_pvalue = 1;
};

// A target that passed the Viterbi stage: its row, the score the filters
// compare against (bias-filter or null score), the P-value that passed.
struct StagePass {
    size_t row;
    float filtersc;
    double p;
};

struct Tally {
    uint64_t candidates = 0, skipped = 0, computed = 0, passed = 0, passed_fwd = 0;
};

// Per model, the candidates in stream order; matched against the database in
// database order (gpu-msv writes targets in database order), so duplicate
// target names are matched one by one, as they occur.
struct CandidateCursor {
    std::vector<Candidate> list;
    size_t next = 0;
};

const std::vector<std::string> kColumns{"model", "model_acc", "target", "target_len",
                                        "vit_bits", "vit_pvalue", "skipped", "passed"};
const std::vector<std::string> kForwardColumns{"fwd_bits", "fwd_pvalue", "fwd_passed"};

// A sub-batch holding the residues of targets `which` of `b` (no names: it
// only feeds an engine), for scoring candidates only.
SeqBatch gather(const SeqBatch& b, const std::vector<uint32_t>& which) {
    SeqBatch g;
    uint64_t total = 0;
    for (uint32_t t : which) total += b.length(t);
    g.residues.reserve(total);
    g.names.reserve(which.size());
    g.descs.reserve(which.size());
    g.offsets.reserve(which.size() + 1);
    for (uint32_t t : which) {
        const auto s = b.seq(t);
        g.residues.insert(g.residues.end(), s.begin(), s.end());
        g.close_record({}, {});
    }
    return g;
}

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-viterbi --hmm MODELS.hmm --db TARGETS.fa [--candidates FILE|-] [options]",
            "HMMER 3.3.2 Viterbi filter and pipeline rule (hmmsearch-identical) on GPU or CPU.");
    std::string hmm_path, db_path, cand_path, surv_path, surv_dir, stats_path;
    double F2 = 1e-3, F1 = 0.02, F3 = 1e-5;
    size_t spread = 0;
    uint64_t chunk_residues_opt = 0;
    bool all = false, inline_msv = false, nobias = false, forward = false;
    cli.tool_options().add_options()
        ("hmm", po::value<std::string>(&hmm_path)->required(), "profile HMM file (the one gpu-msv used)")
        ("db", po::value<std::string>(&db_path)->required(), "protein FASTA/FASTQ (the one gpu-msv read)")
        ("candidates", po::value<std::string>(&cand_path), "gpu-msv output (TSV or JSONL; - for stdin)")
        ("F2", po::value<double>(&F2)->default_value(1e-3), "Viterbi filter P-value threshold")
        ("msv", po::bool_switch(&inline_msv), "run the MSV and bias filters here (as gpu-msv would) instead of reading --candidates")
        ("F1", po::value<double>(&F1)->default_value(0.02), "with --msv: MSV filter P-value threshold")
        ("nobias", po::bool_switch(&nobias), "with --msv: turn off the composition bias filter")
        ("forward", po::bool_switch(&forward),
         "also run hmmsearch's Forward filter on the Viterbi-stage passers (adds fwd_bits, fwd_pvalue, "
         "fwd_passed; the survivors are then the Forward passers)")
        ("F3", po::value<double>(&F3)->default_value(1e-5), "with --forward: Forward filter P-value threshold")
        ("all", po::bool_switch(&all), "a row for every candidate (every target without --candidates)")
        ("survivors", po::value<std::string>(&surv_path), "write the passing targets (each once, database order) as FASTA")
        ("model-survivors", po::value<std::string>(&surv_dir),
         "also write each model's survivors, chunk by chunk, to DIR/<i>.fa (i: the model's position in the "
         "file, from 1), for a final hmmsearch per model that reads them as they come (FIFOs)")
        ("spread", po::value<size_t>(&spread)->default_value(0),
         "for a final hmmsearch: cut each model's survivors (with --model-survivors: in each chunk) into about N "
         "runs of equal expected work, each topped up to 1,000 records with empty ones (hmmsearch skips them), "
         "so its threads share the work; 0: off")
        ("stats", po::value<std::string>(&stats_path), "also write the run summary as JSON to FILE")
        ("chunk-residues", po::value<uint64_t>(&chunk_residues_opt)->default_value(0),
         "database residues held at once (0 = automatic)");
    if (!cli.parse(argc, argv)) return 0;
    const auto& common = cli.common();
    if (!(F2 > 0)) throw UsageError("--F2 must be > 0");
    F2 = std::min(F2, 1.0);
    if (!(F1 > 0)) throw UsageError("--F1 must be > 0");
    F1 = std::min(F1, 1.0);
    if (!(F3 > 0)) throw UsageError("--F3 must be > 0");
    F3 = std::min(F3, 1.0);
    if (!forward && !cli.vm()["F3"].defaulted()) throw UsageError("--F3 goes with --forward");
    if (inline_msv && !cand_path.empty()) throw UsageError("--msv and --candidates are mutually exclusive");
    if (!inline_msv && (cli.vm()["F1"].defaulted() == false || nobias))
        throw UsageError("--F1 and --nobias go with --msv (with --candidates, gpu-msv applied them)");
    if (cand_path == "-" && db_path == "-") throw UsageError("--candidates and --db cannot both be stdin");
    if (spread > 0 && surv_path.empty() && surv_dir.empty())
        throw UsageError("--spread goes with --survivors or --model-survivors");

    std::vector<Model> models;
    std::map<std::string, size_t> by_name;
    for (auto& hmm : read_all_hmms(hmm_path)) {
        if (hmm.alph != AlphabetKind::amino)
            throw InputError(hmm_path, 0, "model \"" + hmm.name + "\" is " +
                                              std::string(Alphabet::of(hmm.alph).name()) +
                                              "; gpu-viterbi searches protein databases with amino models");
        if (!hmm.has_stats && !common.quiet)
            warn(kTool, "model \"" + hmm.name + "\" has no STATS lines: like hmmsearch, no target passes");
        by_name.emplace(hmm.name, models.size());
        models.emplace_back(std::move(hmm));
    }
    if (models.empty()) throw InputError(hmm_path, 0, "no HMM found");

    const bool pipeline = !cand_path.empty() || inline_msv;
    std::vector<CandidateCursor> cursor(models.size());
    if (!cand_path.empty()) {
        const std::string cname = cand_path == "-" ? "<stdin>" : cand_path;
        for (auto& c : read_candidates(cand_path)) {
            if (!c.passed) continue;  // rows of `gpu-msv --all` that failed there
            const auto it = by_name.find(c.model);
            if (it == by_name.end())
                throw InputError(cname, c.line, "unknown model \"" + c.model + "\" (not in " + hmm_path + ")");
            cursor[it->second].list.push_back(std::move(c));
        }
    }

    // Starting the CUDA driver, listing the GPUs (resolve_device) and creating
    // the contexts take a good part of a second: done off this thread while
    // the reader parses the first chunk. `dev` is read only after the get().
    SeqReaderOptions ropt;
    uint64_t sum_m = 0;
    for (const auto& m : models) sum_m += static_cast<uint64_t>(m.msv.hmm.M);
    ropt.batch_residues = chunk_residues_opt > 0 ? chunk_residues_opt : chunk_residues_for(sum_m);
    ropt.parse_threads = common.threads;  // the same records for any number
    SeqReader reader(db_path, Alphabet::amino(), ropt);
    DeviceChoice dev;
    struct Engines {
        std::unique_ptr<VitEngine> vit;
        std::unique_ptr<MsvEngine> msv_full;  // with --msv: the whole chunk's MSV filter
        std::unique_ptr<FwdEngine> fwd;       // with --forward
    };
    const uint64_t chunk_residues = ropt.batch_residues;
    auto engines_ready = std::async(std::launch::async, [&dev, &common, inline_msv, forward, chunk_residues] {
        dev = resolve_device(common.device);
        Engines e;
        e.vit = dev.cuda ? make_vit_cuda_engine(dev.gpus) : make_vit_cpu_engine(common.threads);
        // On a GPU the Forward stage's longest targets go to the CPU (core/fwd_split.hpp).
        if (forward)
            e.fwd = dev.cuda ? make_fwd_split_engine(make_fwd_cuda_engine(dev.gpus), make_fwd_cpu_engine(common.threads),
                                                     common.threads)
                             : make_fwd_cpu_engine(common.threads);
        if (inline_msv) {
            e.msv_full = dev.cuda ? make_msv_cuda_engine(dev.gpus) : make_msv_cpu_engine(common.threads);
            e.msv_full->expect_chunk_residues(chunk_residues);
        }
        return e;
    });
    auto msv_engine = make_msv_cpu_engine(common.threads);  // rescoring streamed candidates
    std::unique_ptr<VitEngine> vit_engine;
    std::unique_ptr<MsvEngine> msv_full;
    std::unique_ptr<FwdEngine> fwd_engine;
    // While the CUDA driver starts, small chunks go to the CPU engines
    // (cpu_finishes_quickly); only with --msv: the candidate stream's chunks
    // are small anyway.
    const bool cpu_while_starting = inline_msv && common.device == "auto";
    const auto quick_on_cpu = [&](const SeqBatch& c) {
        return cpu_finishes_quickly(sum_m * c.total_residues(), common.threads);
    };
    std::unique_ptr<VitEngine> cpu_vit;  // made when a chunk first takes the CPU
    std::unique_ptr<FwdEngine> cpu_fwd;
    uint64_t cpu_chunks = 0;

    std::unique_ptr<SurvivorsFile> survivors;
    if (!surv_path.empty()) survivors = std::make_unique<SurvivorsFile>(surv_path, spread);
    std::unique_ptr<ModelSurvivorStreams> model_survivors;
    if (!surv_dir.empty()) model_survivors = std::make_unique<ModelSurvivorStreams>(surv_dir, models.size(), spread);
    // (chunk index, model, expected hmmsearch work) of each passing pair of a chunk.
    struct PassWork {
        uint32_t t;
        SurvivorsFile::ModelWork w;
    };
    std::vector<PassWork> pass_work;

    // Only the names of targets that make a row are kept (a database of 10^8
    // targets would otherwise hold all its names until the end).
    uint64_t ntargets = 0;
    std::vector<std::vector<Row>> rows(models.size());
    std::vector<Tally> tally(models.size());
    uint64_t residues = 0, cells = 0, fwd_cells = 0;
    using clock = std::chrono::steady_clock;
    auto since = [](clock::time_point a) { return std::chrono::duration<double>(clock::now() - a).count(); };
    const auto t0 = clock::now();
    // Time by stage: waiting for the reader, for the engines, the MSV and
    // bias filters, the Viterbi filter (uploads included), the Forward
    // filter, the survivors. The last four overlap (below): their sum may
    // exceed the wall time.
    double wait_s = 0, engines_s = 0, msv_s = 0, vit_s = 0, fwd_s = 0, write_s = 0;
    std::vector<uint16_t> msv_raw[2];  // two models' MSV results: one scored while the other is decided
    std::vector<MsvVerdict> msv_verdicts;  // kept from chunk to chunk: its pages are faulted in once
    std::vector<uint32_t> vit_raw;

    // One chunk's trip through the filters, in three stages on three
    // threads: this one reads chunk k+2 and runs its MSV and bias filters
    // while the Viterbi stage runs on chunk k+1 and the Forward stage (with
    // the rows and survivors) on chunk k. The stages use separate engines (on
    // a GPU, separate streams); each stage takes the chunks one at a time, in
    // order, so rows and survivors come out as from one thread.
    struct Job {
        SeqBatch chunk;
        VitEngine* vit_e = nullptr;
        FwdEngine* fwd_e = nullptr;
        std::vector<std::vector<uint32_t>> cands;
        std::vector<std::vector<MsvVerdict>> verdicts;
        // Per model: its rows of this chunk, and the Viterbi-stage passers
        // among them (row, filtersc, the P-value that passed), in row order.
        std::vector<std::vector<Row>> rows;
        std::vector<std::vector<StagePass>> passers;
    };
    const auto viterbi_stage = [&](Job& job) {
        const SeqBatch& chunk = job.chunk;
        VitEngine* vit_e = job.vit_e;
        const auto& cands = job.cands;
        const auto& verdicts = job.verdicts;
        auto w0 = clock::now();
        // The Viterbi engine holds only the targets some model may filter:
        // with candidates, their union (a few percent of the chunk, so a GPU
        // upload stays small); without, the whole chunk.
        std::vector<int64_t> slot(chunk.size(), pipeline ? -1 : 0);  // chunk index -> index in `loaded`
        for (const auto& cand : cands)
            for (uint32_t t : cand) slot[t] = 0;
        std::vector<uint32_t> members;
        for (size_t t = 0; t < chunk.size(); ++t) {
            if (slot[t] < 0) continue;
            slot[t] = static_cast<int64_t>(members.size());
            members.push_back(static_cast<uint32_t>(t));
        }
        const SeqBatch loaded = pipeline ? gather(chunk, members) : SeqBatch{};
        if (!pipeline || !members.empty()) vit_e->load_targets(pipeline ? loaded : chunk);
        auto& chunk_rows = job.rows;
        auto& stage_pass = job.passers;
        chunk_rows.assign(models.size(), {});
        stage_pass.assign(models.size(), {});
        for (size_t mi = 0; mi < models.size(); ++mi) {
            const Model& m = models[mi];
            auto& mrows = chunk_rows[mi];
            auto& passers = stage_pass[mi];
            // Which targets of this chunk go to the Viterbi filter, with their filtersc.
            std::vector<uint32_t> which;
            std::vector<float> filtersc;
            if (pipeline) {
                const auto& cand = cands[mi];
                for (size_t j = 0; j < cand.size(); ++j) {
                    const uint32_t t = cand[j];
                    Row r;
                    r.target = chunk.first_index + t;
                    r.length = chunk.length(t);
                    const MsvVerdict& v = verdicts[mi][j];
                    ++tally[mi].candidates;
                    if (!vit_filter_needed(v, F2)) {
                        r.skipped = r.passed = true;
                        ++tally[mi].skipped;
                        passers.push_back({mrows.size(), v.filtersc, v.bias_p});
                    } else {
                        which.push_back(t);
                        filtersc.push_back(v.filtersc);
                    }
                    mrows.push_back(r);
                }
            } else {
                for (size_t t = 0; t < chunk.size(); ++t) {
                    Row r;
                    r.target = chunk.first_index + t;
                    r.length = chunk.length(t);
                    if (r.length > 0) {  // hmmsearch skips empty targets
                        which.push_back(static_cast<uint32_t>(t));
                        filtersc.push_back(null_score(r.length));
                        ++tally[mi].candidates;
                    }
                    mrows.push_back(r);
                }
            }
            vit_raw.assign(which.size(), 0);
            std::vector<uint32_t> at(which.size());
            for (size_t j = 0; j < which.size(); ++j) at[j] = static_cast<uint32_t>(slot[which[j]]);
            if (!which.empty()) vit_e->score(m.vit.words, at, vit_raw);
            for (size_t j = 0, r = 0; j < which.size(); ++j) {
                while (mrows[r].target != chunk.first_index + which[j]) ++r;
                const VitVerdict v = vit_verdict(m.msv.hmm, filtersc[j], vit_raw[j], chunk.length(which[j]), F2);
                mrows[r].scored = true;
                mrows[r].bits = v.bits;
                mrows[r].pvalue = v.p;
                mrows[r].passed = v.pass;
                if (v.pass) passers.push_back({r, filtersc[j], v.p});
                cells += static_cast<uint64_t>(m.vit.words.M) * chunk.length(which[j]);
            }
            tally[mi].computed += which.size();
            std::sort(passers.begin(), passers.end(), [](const StagePass& a, const StagePass& b) { return a.row < b.row; });
        }
        vit_s += since(w0);
    };
    const auto forward_stage = [&](Job& job) {
        const SeqBatch& chunk = job.chunk;
        auto& chunk_rows = job.rows;
        const auto& stage_pass = job.passers;
        auto w0 = clock::now();
        pass_work.clear();
        // The Forward filter on every model's stage passers, in one call: a
        // GPU is busy only with thousands of targets at once.
        std::vector<SeqBatch> fwd_targets(models.size());
        std::vector<std::vector<float>> fwd_nats(models.size());
        if (forward) {
            w0 = clock::now();
            std::vector<FwdJob> jobs;
            for (size_t mi = 0; mi < models.size(); ++mi) {
                if (stage_pass[mi].empty()) continue;
                std::vector<uint32_t> at;
                for (const auto& sp : stage_pass[mi])
                    at.push_back(static_cast<uint32_t>(chunk_rows[mi][sp.row].target - chunk.first_index));
                fwd_targets[mi] = gather(chunk, at);
                fwd_nats[mi].resize(at.size());
                jobs.push_back({&models[mi].fwd, &fwd_targets[mi], fwd_nats[mi]});
                fwd_cells += static_cast<uint64_t>(models[mi].msv.hmm.M) * fwd_targets[mi].total_residues();
            }
            if (!jobs.empty()) job.fwd_e->score_many(jobs);
            fwd_s += since(w0);
        }

        // Survivors: the stage passers, or with --forward those that also
        // pass the Forward filter.
        for (size_t mi = 0; mi < models.size(); ++mi) {
            const Model& m = models[mi];
            auto& mrows = chunk_rows[mi];
            const auto survive = [&](const Row& r, double p) {
                const auto t = static_cast<uint32_t>(r.target - chunk.first_index);
                pass_work.push_back({t, {static_cast<uint32_t>(mi), hmmsearch_work(r.length, m.msv.hmm.M, p)}});
            };
            for (size_t j = 0; j < stage_pass[mi].size(); ++j) {
                const StagePass& sp = stage_pass[mi][j];
                Row& r = mrows[sp.row];
                if (!forward) {
                    survive(r, sp.p);
                    continue;
                }
                const FwdVerdict fv = fwd_verdict(m.msv.hmm, sp.filtersc, fwd_nats[mi][j], F3);
                r.fwd_scored = true;
                r.fwd_bits = fv.bits;
                r.fwd_pvalue = fv.p;
                r.fwd_passed = fv.pass;
                if (fv.pass) {
                    ++tally[mi].passed_fwd;
                    survive(r, fv.p);
                }
            }
            for (auto& r : mrows) {
                if (r.passed) ++tally[mi].passed;
                if (r.passed || all) {
                    r.name = chunk.names[static_cast<size_t>(r.target - chunk.first_index)];
                    rows[mi].push_back(std::move(r));
                }
            }
        }
        w0 = clock::now();
        if (model_survivors) {
            std::vector<PassWork> by_model = pass_work;
            std::sort(by_model.begin(), by_model.end(), [](const PassWork& a, const PassWork& b) {
                return a.w.model != b.w.model ? a.w.model < b.w.model : a.t < b.t;
            });
            std::vector<uint32_t> targets;
            std::vector<double> work;
            for (size_t i = 0; i < by_model.size();) {
                const uint32_t mi = by_model[i].w.model;
                targets.clear();
                work.clear();
                for (; i < by_model.size() && by_model[i].w.model == mi; ++i) {
                    targets.push_back(by_model[i].t);
                    work.push_back(by_model[i].w.work);
                }
                model_survivors->add(mi, chunk, targets, work);
            }
        }
        if (survivors) {
            std::stable_sort(pass_work.begin(), pass_work.end(),
                             [](const PassWork& a, const PassWork& b) { return a.t < b.t; });
            std::vector<SurvivorsFile::ModelWork> work;
            for (size_t i = 0; i < pass_work.size();) {
                const uint32_t t = pass_work[i].t;
                work.clear();
                for (; i < pass_work.size() && pass_work[i].t == t; ++i) work.push_back(pass_work[i].w);
                survivors->add(chunk, t, work);
            }
        }
        write_s += since(w0);
    };
    Job jobs[3];
    size_t next_job = 0;
    std::future<void> viterbi_done, forward_done;
    for (;;) {
        Job& job = jobs[next_job];
        auto w0 = clock::now();
        if (!reader.next(job.chunk)) break;
        wait_s += since(w0);
        const SeqBatch& chunk = job.chunk;
        MsvEngine* msv_e = msv_full.get();
        VitEngine* vit_e = vit_engine.get();
        FwdEngine* fwd_e = fwd_engine.get();
        if (!vit_engine) {
            const bool ready = engines_ready.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
            if (!ready && cpu_while_starting && quick_on_cpu(chunk)) {
                if (!cpu_vit) cpu_vit = make_vit_cpu_engine(common.threads);
                if (forward && !cpu_fwd) cpu_fwd = make_fwd_cpu_engine(common.threads);
                msv_e = msv_engine.get();
                vit_e = cpu_vit.get();
                fwd_e = cpu_fwd.get();
                ++cpu_chunks;
            } else {
                w0 = clock::now();
                Engines e = engines_ready.get();
                vit_engine = std::move(e.vit);
                msv_full = std::move(e.msv_full);
                fwd_engine = std::move(e.fwd);
                engines_s = since(w0);
                msv_e = msv_full.get();
                vit_e = vit_engine.get();
                fwd_e = fwd_engine.get();
            }
        }
        w0 = clock::now();
        // Each model's candidates in this chunk, in database order, with their
        // exact MSV/bias verdicts (filtersc and the bias-corrected P-value
        // decide the pipeline rule of the Viterbi stage).
        job.vit_e = vit_e;
        job.fwd_e = fwd_e;
        job.cands.assign(models.size(), {});
        job.verdicts.assign(models.size(), {});
        auto& cands = job.cands;
        auto& verdicts = job.verdicts;
        if (inline_msv) {
            msv_e->load_targets(chunk);
            std::vector<MsvVerdict>& v = msv_verdicts;
            v.resize(chunk.size());
            // The engine scores the next model while this one's results are
            // turned into decisions (on a GPU the host would otherwise wait).
            for (auto& raw : msv_raw) raw.resize(chunk.size());
            const auto score = [&](size_t mi) {
                return std::async(std::launch::async,
                                  [&, mi] { msv_e->score(models[mi].msv.bytes, msv_raw[mi % 2]); });
            };
            std::future<void> scored = score(0);
            for (size_t mi = 0; mi < models.size(); ++mi) {
                scored.get();
                if (mi + 1 < models.size()) scored = score(mi + 1);
                const std::vector<uint16_t>& raw = msv_raw[mi % 2];
                parallel_for(chunk.size(), common.threads, 256, [&](size_t t) {
                    // hmmsearch skips empty targets: they pass nothing
                    v[t] = chunk.length(t) > 0 ? msv_verdict(models[mi].msv, chunk.seq(t), raw[t], F1, !nobias)
                                               : MsvVerdict{};
                });
                for (size_t t = 0; t < chunk.size(); ++t) {
                    if (chunk.length(t) == 0 || !v[t].pass_bias) continue;
                    cands[mi].push_back(static_cast<uint32_t>(t));
                    verdicts[mi].push_back(v[t]);
                }
            }
        } else if (pipeline) {
            for (size_t mi = 0; mi < models.size(); ++mi) {
                auto& cur = cursor[mi];
                std::vector<bool> bias_on;
                for (size_t t = 0; t < chunk.size() && cur.next < cur.list.size(); ++t) {
                    const Candidate& c = cur.list[cur.next];
                    if (c.target != chunk.names[t]) continue;
                    if (c.target_len != chunk.length(t))
                        throw InputError(cand_path == "-" ? "<stdin>" : cand_path, c.line,
                                         "target \"" + c.target + "\" has length " + std::to_string(c.target_len) +
                                             " in the candidates but " + std::to_string(chunk.length(t)) +
                                             " in " + db_path + " (a different database?)");
                    cands[mi].push_back(static_cast<uint32_t>(t));
                    bias_on.push_back(c.bias_on);
                    ++cur.next;
                }
                // Rescore the candidates' MSV exactly (the stream's P-values are
                // rounded text); F1 = 1: gpu-msv has already applied its own.
                const SeqBatch sub = gather(chunk, cands[mi]);
                std::vector<uint16_t>& raw = msv_raw[0];
                raw.assign(sub.size(), 0);
                msv_engine->load_targets(sub);
                if (!sub.empty()) msv_engine->score(models[mi].msv.bytes, raw);
                for (size_t j = 0; j < cands[mi].size(); ++j)
                    verdicts[mi].push_back(
                        msv_verdict(models[mi].msv, chunk.seq(cands[mi][j]), raw[j], 1.0, bias_on[j]));
            }
        }
        msv_s += since(w0);
        residues += chunk.total_residues();
        ntargets += chunk.size();
        if (common.progress)
            std::fprintf(stderr, "\r%s: %llu targets, %.3g Mres   ", kTool, static_cast<unsigned long long>(ntargets),
                         residues / 1e6);
        if (viterbi_done.valid()) viterbi_done.get();
        viterbi_done = std::async(std::launch::async, [&viterbi_stage, &forward_stage, &forward_done, &job] {
            viterbi_stage(job);
            if (forward_done.valid()) forward_done.get();
            forward_done = std::async(std::launch::async, [&forward_stage, &job] { forward_stage(job); });
        });
        next_job = (next_job + 1) % 3;
    }
    if (viterbi_done.valid()) viterbi_done.get();
    if (forward_done.valid()) forward_done.get();
    if (common.progress) std::fputc('\n', stderr);
    if (ntargets == 0) throw InputError(db_path, 0, "no sequences in the database");
    // Which engines ran. When every chunk came before the CUDA engines had
    // started, the CPU's did it all, and nothing waits for the start-up.
    const std::string ran_on = vit_engine ? dev.describe() : "cpu (every chunk came before CUDA had started)";
    const std::string engine_name = vit_engine ? vit_engine->name() : cpu_vit->name();
    for (size_t mi = 0; mi < models.size(); ++mi) {
        const auto& cur = cursor[mi];
        if (cur.next < cur.list.size()) {
            const Candidate& c = cur.list[cur.next];
            throw InputError(cand_path == "-" ? "<stdin>" : cand_path, c.line,
                             "target \"" + c.target + "\" of model \"" + c.model + "\" is not in " + db_path +
                                 " (or the candidates are not in database order)");
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    OutputFile out(common.output);
    std::vector<std::string> columns = kColumns;
    if (forward) columns.insert(columns.end(), kForwardColumns.begin(), kForwardColumns.end());
    RecordWriter writer(out, parse_format(common.format), columns);
    writer.write_header();
    for (size_t mi = 0; mi < models.size(); ++mi) {
        const Hmm& h = models[mi].msv.hmm;
        for (const Row& r : rows[mi]) {
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
    if (survivors) survivors->commit();
    if (model_survivors) model_survivors->commit();
    out.commit();

    nlohmann::ordered_json stats;
    stats["tool"] = kTool;
    stats["device"] = ran_on;
    stats["engine"] = engine_name;
    stats["chunks_on_cpu_while_starting"] = cpu_chunks;
    stats["Z"] = ntargets;
    stats["residues"] = residues;
    stats["seconds"] = seconds;
    stats["stage_seconds"] = {{"read_wait", wait_s}, {"engines", engines_s}, {"msv", msv_s}, {"viterbi", vit_s},
                              {"forward", fwd_s}, {"survivors", write_s}};
    stats["cells"] = cells;
    stats["forward"] = forward;
    if (forward) {
        stats["F3"] = F3;
        stats["forward_cells"] = fwd_cells;
        stats["forward_engine"] = fwd_engine ? fwd_engine->name() : cpu_fwd->name();
    }
    stats["models"] = nlohmann::ordered_json::array();
    for (size_t mi = 0; mi < models.size(); ++mi) {
        stats["models"].push_back({{"model", models[mi].msv.hmm.name}, {"M", models[mi].msv.hmm.M},
                                   {"candidates", tally[mi].candidates}, {"skipped", tally[mi].skipped},
                                   {"computed", tally[mi].computed}, {"passed_vit", tally[mi].passed}});
        if (forward) stats["models"].back()["passed_fwd"] = tally[mi].passed_fwd;
    }
    if (!common.quiet) {
        for (size_t mi = 0; mi < models.size(); ++mi)
            std::fprintf(stderr, "%s: %s (M=%d): candidates %llu, skipped (MSV P <= F2) %llu, passed Vit %llu%s\n",
                         kTool, models[mi].msv.hmm.name.c_str(), models[mi].msv.hmm.M,
                         static_cast<unsigned long long>(tally[mi].candidates),
                         static_cast<unsigned long long>(tally[mi].skipped),
                         static_cast<unsigned long long>(tally[mi].passed),
                         forward ? (", passed Fwd " + std::to_string(tally[mi].passed_fwd)).c_str() : "");
        std::fprintf(stderr, "%s: Z = %llu targets, %.3f s, %llu Viterbi cells\n", kTool,
                     static_cast<unsigned long long>(ntargets), seconds,
                     static_cast<unsigned long long>(cells));
    }
    if (!stats_path.empty()) {
        OutputFile sf(stats_path);
        sf.write(stats.dump(2) + "\n");
        sf.commit();
    }
    finish_stdout();  // a pipeline waiting on our stdout goes on while the engines are freed
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return run_tool(kTool, argc, argv, run); }
