// The filter pipeline: three stages on three threads per chunk (the MSV
// stage with the reader, the Viterbi stage, the Forward stage with the rows
// and survivors), each taking the chunks one at a time, in order.
#include "tools/hmmer/filter_pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <optional>
#include <utility>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/base/parallel.hpp"
#include "core/base/trace.hpp"
#include "core/hmmer/background.hpp"
#include "core/hmmer/fwd/fwd_cpu.hpp"
#include "core/hmmer/fwd/fwd_engine.hpp"
#include "core/hmmer/fwd/fwd_model.hpp"
#include "core/hmmer/fwd/fwd_split.hpp"
#include "core/hmmer/msv/msv_cpu.hpp"
#include "core/hmmer/msv/msv_pass_floor.hpp"
#include "core/hmmer/pipeline/survivors_file.hpp"
#include "core/hmmer/vit/vit_cpu.hpp"
#include "core/hmmer/vit/vit_engine.hpp"
#include "core/io/seq_reader.hpp"
#include "kernels/fwd/fwd_cuda.hpp"
#include "kernels/msv/msv_cuda.hpp"
#include "kernels/vit/vit_cuda.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/device_choice.hpp"
#include "tools/common/progress.hpp"
#include "tools/common/tool_engines.hpp"
#include "tools/hmmer/hmmer_costs.hpp"
#include "tools/hmmer/msv_stage.hpp"

namespace warpdp {
namespace {

using clock = std::chrono::steady_clock;
double since(clock::time_point a) { return std::chrono::duration<double>(clock::now() - a).count(); }

using Row = FilterRow;

// Viterbi engines on the GPU, each scoring its own models' candidates at
// once: one model's call lasts as long as its longest candidate's rows (a
// few milliseconds, on Pfam-sized model sets most of the stage).
constexpr unsigned kViterbiStreams = 4;

// A target that passed the Viterbi stage: its row, the score the filters
// compare against (bias-filter or null score), the P-value that passed.
struct StagePass {
    size_t row;
    float filtersc;
    double p;
};

// One chunk on its way through the stages.
struct Job {
    uint64_t number = 0;  // chunks before it
    SeqBatch chunk;
    std::vector<VitEngine*> vit_e;
    FwdEngine* fwd_e = nullptr;
    // Per model: the candidates of this chunk (database order) with their
    // exact MSV/bias verdicts.
    std::vector<std::vector<uint32_t>> cands;
    std::vector<std::vector<MsvVerdict>> verdicts;
    // Per model: its rows of this chunk, and the Viterbi-stage passers
    // among them, in row order.
    std::vector<std::vector<Row>> rows;
    std::vector<std::vector<StagePass>> passers;
};

// (chunk index, model, expected hmmsearch work) of each passing pair of a chunk.
struct PassWork {
    uint32_t t;
    SurvivorsFile::ModelWork w;
};

}  // namespace

struct FilterPipeline::Impl {
    struct Engines {
        // With candidates on a GPU, several, each with its own stream and a
        // copy of the candidates: their models' calls run side by side
        // (kViterbiStreams).
        std::vector<std::unique_ptr<VitEngine>> vit;
        std::unique_ptr<MsvEngine> msv_full;  // with inline MSV: the whole chunk's MSV filter
        std::unique_ptr<FwdEngine> fwd;       // with forward
    };

    const std::vector<FilterModel>& models;
    const FilterSettings s;
    const double F1, F2, F3;
    const bool inline_msv, nobias, forward, all;
    bool pipeline = false;
    uint64_t sum_m = 0;
    std::unique_ptr<MsvEngine> msv_engine;  // rescoring streamed candidates
    std::unique_ptr<ToolEngines<Engines>> engines;
    std::optional<MsvStage> msv_stage;  // with inline MSV

    std::vector<FilterCandidates>* cursor = nullptr;
    SurvivorsFile* survivors = nullptr;
    ModelSurvivorStreams* model_survivors = nullptr;
    FilterRun out;
    std::vector<PassWork> pass_work;
    std::vector<uint16_t> msv_raw;  // rescoring streamed candidates

    Impl(const std::vector<FilterModel>& m, FilterSettings settings)
        : models(m), s(std::move(settings)), F1(std::min(s.F1, 1.0)), F2(std::min(s.F2, 1.0)),
          F3(std::min(s.F3, 1.0)), inline_msv(s.inline_msv), nobias(s.nobias), forward(s.forward), all(s.all) {
        for (const auto& fm : models) sum_m += static_cast<uint64_t>(fm.msv.hmm.M);
        msv_engine = make_msv_cpu_engine(s.common.threads);
        if (inline_msv) {
            std::vector<const MsvModel*> msv_models;
            for (const auto& fm : models) msv_models.push_back(&fm.msv);
            MsvSearchOptions opt;
            opt.F1 = F1;
            opt.bias = !nobias;
            opt.threads = s.common.threads;
            msv_stage.emplace(std::move(msv_models), opt);
        }
    }

    uint64_t chunk_residues() const { return s.chunk_residues > 0 ? s.chunk_residues : chunk_residues_for(sum_m); }

    // Starting the CUDA driver, listing the GPUs (resolve_device) and
    // creating the contexts take a good part of a second: done off the
    // calling thread while the reader parses the first chunk
    // (tools/common/tool_engines.hpp). On several GPUs, only the stage that meets
    // every target (MSV with inline MSV, else Viterbi) is split over them;
    // the later stages meet a few percent of the targets and stay on the
    // first GPU: split, each of their calls waits for every device, which
    // doubled the filters' tail after the last MSV stage (docs/benchmarks.md).
    //
    // While the CUDA driver starts, small chunks go to the CPU engines
    // (cpu_finishes_quickly); only with inline MSV: the candidate stream's
    // chunks are small anyway.
    void start_engines() {
        engines = std::make_unique<ToolEngines<Engines>>(
            s.tool, s.common,
            [threads = s.common.threads, forward = forward, inline_msv = inline_msv, pipeline = pipeline,
             residues = chunk_residues()](const DeviceChoice& d) {
                const std::vector<int> first(d.gpus.begin(), d.gpus.begin() + (d.cuda ? 1 : 0));
                Engines e;
                if (!d.cuda) e.vit.push_back(make_vit_cpu_engine(threads));
                for (unsigned k = 0; d.cuda && k < (pipeline ? kViterbiStreams : 1u); ++k)
                    e.vit.push_back(make_vit_cuda_engine(inline_msv ? first : d.gpus));
                // On a GPU the Forward stage's longest targets go to the CPU (core/hmmer/fwd/fwd_split.hpp).
                if (forward)
                    e.fwd = d.cuda ? make_fwd_split_engine(make_fwd_cuda_engine(first), make_fwd_cpu_engine(threads),
                                                           threads)
                                   : make_fwd_cpu_engine(threads);
                if (inline_msv) {
                    e.msv_full = d.cuda ? make_msv_cuda_engine(d.gpus) : make_msv_cpu_engine(threads);
                    e.msv_full->expect_chunk_residues(residues);
                }
                trace_event("engines-ready");
                return e;
            });
    }

    void viterbi_stage(Job& job) {
        const SeqBatch& chunk = job.chunk;
        const std::vector<VitEngine*>& vit_e = job.vit_e;
        const auto& cands = job.cands;
        const auto& verdicts = job.verdicts;
        trace_event("viterbi-start", job.number);
        auto w0 = clock::now();
        // The Viterbi engines hold only the targets some model may filter:
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
        if (!pipeline || !members.empty())
            for (VitEngine* e : vit_e) e->load_targets(pipeline ? loaded : chunk);
        auto& chunk_rows = job.rows;
        auto& stage_pass = job.passers;
        chunk_rows.assign(models.size(), {});
        stage_pass.assign(models.size(), {});
        // Per model: which targets of this chunk go to the Viterbi filter
        // (their places in the engines), with their filtersc.
        std::vector<std::vector<uint32_t>> which(models.size()), at(models.size());
        std::vector<std::vector<float>> filtersc(models.size());
        for (size_t mi = 0; mi < models.size(); ++mi) {
            auto& mrows = chunk_rows[mi];
            auto& passers = stage_pass[mi];
            if (pipeline) {
                const auto& cand = cands[mi];
                for (size_t j = 0; j < cand.size(); ++j) {
                    const uint32_t t = cand[j];
                    Row r;
                    r.target = chunk.first_index + t;
                    r.length = chunk.length(t);
                    const MsvVerdict& v = verdicts[mi][j];
                    ++out.tally[mi].candidates;
                    if (!vit_filter_needed(v, F2)) {
                        r.skipped = r.passed = true;
                        ++out.tally[mi].skipped;
                        passers.push_back({mrows.size(), v.filtersc, v.bias_p});
                    } else {
                        which[mi].push_back(t);
                        filtersc[mi].push_back(v.filtersc);
                    }
                    mrows.push_back(r);
                }
            } else {
                for (size_t t = 0; t < chunk.size(); ++t) {
                    Row r;
                    r.target = chunk.first_index + t;
                    r.length = chunk.length(t);
                    if (r.length > 0) {  // hmmsearch skips empty targets
                        which[mi].push_back(static_cast<uint32_t>(t));
                        filtersc[mi].push_back(null_score(r.length));
                        ++out.tally[mi].candidates;
                    }
                    mrows.push_back(r);
                }
            }
            for (uint32_t t : which[mi]) at[mi].push_back(static_cast<uint32_t>(slot[t]));
        }
        // The scores, engine w taking the models its host thread draws: a
        // GPU call lasts as long as its longest target's serial rows, so
        // several models' calls at once keep the card busy.
        std::vector<std::vector<uint32_t>> raw(models.size());
        parallel_for_workers(models.size(), static_cast<unsigned>(vit_e.size()), 1, [&](unsigned w, size_t mi) {
            raw[mi].assign(which[mi].size(), 0);
            if (!which[mi].empty()) vit_e[w]->score(models[mi].vit.words, at[mi], raw[mi]);
        });
        for (size_t mi = 0; mi < models.size(); ++mi) {
            const FilterModel& m = models[mi];
            auto& mrows = chunk_rows[mi];
            auto& passers = stage_pass[mi];
            for (size_t j = 0, r = 0; j < which[mi].size(); ++j) {
                const uint32_t t = which[mi][j];
                while (mrows[r].target != chunk.first_index + t) ++r;
                const VitVerdict v = vit_verdict(m.msv.hmm, filtersc[mi][j], raw[mi][j], chunk.length(t), F2);
                mrows[r].scored = true;
                mrows[r].bits = v.bits;
                mrows[r].pvalue = v.p;
                mrows[r].passed = v.pass;
                if (v.pass) passers.push_back({r, filtersc[mi][j], v.p});
                out.cells += static_cast<uint64_t>(m.vit.words.M) * chunk.length(t);
            }
            out.tally[mi].computed += which[mi].size();
            std::sort(passers.begin(), passers.end(),
                      [](const StagePass& a, const StagePass& b) { return a.row < b.row; });
        }
        out.vit_s += since(w0);
        trace_event("viterbi-end", job.number);
    }

    void forward_stage(Job& job) {
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
                out.fwd_cells += static_cast<uint64_t>(models[mi].msv.hmm.M) * fwd_targets[mi].total_residues();
            }
            if (!jobs.empty()) job.fwd_e->score_many(jobs);
            out.fwd_s += since(w0);
        }

        // Survivors: the stage passers, or with --forward those that also
        // pass the Forward filter.
        for (size_t mi = 0; mi < models.size(); ++mi) {
            const FilterModel& m = models[mi];
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
                    ++out.tally[mi].passed_fwd;
                    survive(r, fv.p);
                }
            }
            for (auto& r : mrows) {
                if (r.passed) ++out.tally[mi].passed;
                if (r.passed || all) {
                    r.name = chunk.names[static_cast<size_t>(r.target - chunk.first_index)];
                    out.rows[mi].push_back(std::move(r));
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
        out.survivors_s += since(w0);
        trace_event("survivors-out", job.number);
    }

    FilterRun run() {
        pipeline = cursor != nullptr || inline_msv;
        out.rows.assign(models.size(), {});
        out.tally.assign(models.size(), {});
        SeqReaderOptions ropt;
        ropt.batch_residues = chunk_residues();
        ropt.parse_threads = s.common.threads;  // the same records for any number
        ropt.max_record_residues = kHmmerMaxTargetLength;  // beyond, the null model is -inf
        trace_event("run-start");
        SeqReader reader(s.db_path, Alphabet::amino(), ropt);
        start_engines();
        Progress progress(s.tool, s.common, "targets");
        const auto t0 = clock::now();
        Job jobs[3];
        size_t next_job = 0;
        std::future<void> viterbi_done, forward_done;
        // When a chunk fails (bad input late in the database), the stages
        // still at work on earlier chunks are waited for before what they use
        // goes: the jobs, the output sinks, and forward_done, which the
        // Viterbi stage's task sets when it ends (so it is waited for first).
        struct StagesDrain {
            std::future<void>& vit;
            std::future<void>& fwd;
            ~StagesDrain() {
                if (vit.valid()) vit.wait();
                if (fwd.valid()) fwd.wait();
            }
        } drain{viterbi_done, forward_done};
        for (uint64_t number = 0;; ++number) {
            Job& job = jobs[next_job];
            job.number = number;
            auto w0 = clock::now();
            if (!reader.next(job.chunk)) break;
            out.read_wait_s += since(w0);
            trace_event("read", number);
            const SeqBatch& chunk = job.chunk;
            Engines& e = engines->for_chunk(
                inline_msv && cpu_finishes_quickly(sum_m * chunk.total_residues(), s.common.threads));
            if (engines->on_cpu_while_starting()) {
                ++out.cpu_chunks;
                trace_event("on-cpu", number);
            }
            out.engines_s = engines->wait_seconds();
            w0 = clock::now();
            // Each model's candidates in this chunk, in database order, with their
            // exact MSV/bias verdicts (filtersc and the bias-corrected P-value
            // decide the pipeline rule of the Viterbi stage).
            job.vit_e.clear();
            for (const auto& v : e.vit) job.vit_e.push_back(v.get());
            job.fwd_e = e.fwd.get();
            job.cands.assign(models.size(), {});
            job.verdicts.assign(models.size(), {});
            auto& cands = job.cands;
            auto& verdicts = job.verdicts;
            if (inline_msv) {
                // Each model's survivors of the MSV and bias filters, with
                // their verdicts, taken from the stage as soon as decided.
                out.msv_decide_s += msv_stage->run(chunk, number, *e.msv_full, [&](size_t mi, size_t first_new) {
                    auto& rows = msv_stage->rows(mi);
                    for (size_t r = first_new; r < rows.size(); ++r) {
                        cands[mi].push_back(static_cast<uint32_t>(rows[r].target - chunk.first_index));
                        verdicts[mi].push_back(rows[r].v);
                    }
                    rows.clear();
                }).decide_s;
            } else if (pipeline) {
                for (size_t mi = 0; mi < models.size(); ++mi) {
                    auto& cur = (*cursor)[mi];
                    std::vector<bool> bias_on;
                    for (size_t t = 0; t < chunk.size() && cur.next < cur.list.size(); ++t) {
                        const Candidate& c = cur.list[cur.next];
                        const uint64_t index = chunk.first_index + t;
                        if (c.target_index ? *c.target_index != index : !stream_name_is(c, c.target, chunk.names[t]))
                            continue;
                        if (c.target_index && !stream_name_is(c, c.target, chunk.names[t]))
                            throw InputError(s.cand_name, c.line,
                                             "target_index " + std::to_string(index) + " is \"" + chunk.names[t] +
                                                 "\" in " + s.db_path + " but \"" + c.target +
                                                 "\" in the candidates (a different database?)");
                        if (c.target_len != chunk.length(t))
                            throw InputError(s.cand_name, c.line,
                                             "target \"" + c.target + "\" has length " + std::to_string(c.target_len) +
                                                 " in the candidates but " + std::to_string(chunk.length(t)) +
                                                 " in " + s.db_path + " (a different database?)");
                        cands[mi].push_back(static_cast<uint32_t>(t));
                        bias_on.push_back(c.bias_on);
                        ++cur.next;
                    }
                    // Rescore the candidates' MSV exactly (the stream's P-values are
                    // rounded text); F1 = 1: gpu-msv has already applied its own.
                    const SeqBatch sub = gather(chunk, cands[mi]);
                    std::vector<uint16_t>& raw = msv_raw;
                    raw.assign(sub.size(), 0);
                    msv_engine->load_targets(sub);
                    if (!sub.empty()) msv_engine->score(models[mi].msv.bytes, raw);
                    for (size_t j = 0; j < cands[mi].size(); ++j)
                        verdicts[mi].push_back(
                            msv_verdict(models[mi].msv, chunk.seq(cands[mi][j]), raw[j], 1.0, bias_on[j]));
                }
            }
            out.msv_s += since(w0);
            trace_event("msv-end", number);
            out.residues += chunk.total_residues();
            out.targets += chunk.size();
            out.overlong.add(chunk);
            progress.update(out.targets, residues_progress(out.residues));
            if (viterbi_done.valid()) viterbi_done.get();
            viterbi_done = std::async(std::launch::async, [this, &forward_done, &job] {
                viterbi_stage(job);
                if (forward_done.valid()) forward_done.get();
                forward_done = std::async(std::launch::async, [this, &job] { forward_stage(job); });
            });
            next_job = (next_job + 1) % 3;
        }
        if (viterbi_done.valid()) viterbi_done.get();
        if (forward_done.valid()) forward_done.get();
        progress.finish();
        if (out.targets == 0) throw InputError(s.db_path, 0, "no sequences in the database");
        // Which engines ran. When every chunk came before the CUDA engines
        // had started, the CPU's did it all (device "cpu"), and nothing waits
        // for the start-up.
        out.device = engines->device();
        const Engines& ran = *engines->ran();
        out.engine = ran.vit.front()->name();
        if (forward) out.fwd_engine = ran.fwd->name();
        for (size_t mi = 0; msv_stage && mi < models.size(); ++mi) {
            out.tally[mi].passed_msv = msv_stage->tally(mi).passed_msv;
            out.tally[mi].passed_bias = msv_stage->tally(mi).passed_bias;
        }
        for (size_t mi = 0; cursor && mi < models.size(); ++mi) {
            const auto& cur = (*cursor)[mi];
            if (cur.next < cur.list.size()) {
                const Candidate& c = cur.list[cur.next];
                if (c.target_index && *c.target_index >= out.targets)
                    throw InputError(s.cand_name, c.line,
                                     "target_index " + std::to_string(*c.target_index) + ", but " + s.db_path +
                                         " holds " + std::to_string(out.targets) + " records (a different database?)");
                if (c.target_index)
                    throw InputError(s.cand_name, c.line,
                                     "target \"" + c.target + "\" (target_index " + std::to_string(*c.target_index) +
                                         ") of model \"" + c.model +
                                         "\" repeats a row or comes after a later target: the candidates must be "
                                         "gpu-msv's rows, in database order");
                throw InputError(s.cand_name, c.line,
                                 "target \"" + c.target + "\" of model \"" + c.model + "\" is not in " + s.db_path +
                                     " (or the candidates are not in database order, or repeat a row)");
            }
        }
        out.seconds = since(t0);
        trace_event("run-end");
        return std::move(out);
    }
};

FilterPipeline::FilterPipeline(const std::vector<FilterModel>& models, FilterSettings settings)
    : impl_(std::make_unique<Impl>(models, std::move(settings))) {}

// A start still under way is waited for, or in a tool left to the process's
// end (tools/common/engine_start.hpp).
FilterPipeline::~FilterPipeline() = default;

FilterRun FilterPipeline::run(std::vector<FilterCandidates>* candidates, SurvivorsFile* survivors,
                              ModelSurvivorStreams* model_survivors) {
    impl_->cursor = candidates;
    impl_->survivors = survivors;
    impl_->model_survivors = model_survivors;
    return impl_->run();
}

}  // namespace warpdp
