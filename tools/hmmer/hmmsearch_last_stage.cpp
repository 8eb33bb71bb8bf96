#include "tools/hmmer/hmmsearch_last_stage.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

#include <sys/resource.h>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"
#include "core/hmmer/hmm.hpp"
#include "core/hmmer/profile.hpp"
#include "core/hmmer/report/hit_list.hpp"
#include "core/io/seq_reader.hpp"
#include "tools/hmmer/hmmsearch_alignment_output.hpp"
#include "tools/hmmer/hmmsearch_domtblout.hpp"
#include "tools/hmmer/hmmsearch_options.hpp"
#include "tools/hmmer/hmmsearch_pfamtblout.hpp"
#include "tools/hmmer/hmmsearch_tblout.hpp"

namespace warpdp {
namespace {

double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

SearchTimes times_since(double start) {
    rusage self{}, children{};
    ::getrusage(RUSAGE_SELF, &self);
    ::getrusage(RUSAGE_CHILDREN, &children);
    const auto secs = [](const timeval& a, const timeval& b) {
        return static_cast<double>(a.tv_sec + b.tv_sec) + static_cast<double>(a.tv_usec + b.tv_usec) * 1e-6;
    };
    return {secs(self.ru_utime, children.ru_utime), secs(self.ru_stime, children.ru_stime), steady_seconds() - start};
}

uint64_t count(const nlohmann::json& j, const char* key) {
    if (!j.contains(key) || !j[key].is_number_unsigned())
        throw InternalError(std::string("gpu-viterbi's statistics lack \"") + key + "\"");
    return j[key].get<uint64_t>();
}

// Each model's survivor file in bytes (about its residues; 0 where none).
std::vector<double> survivor_bytes(const LastStageInput& in, size_t n) {
    std::vector<double> bytes(n, 0.0);
    for (size_t i = 0; i < n; ++i) {
        std::error_code ec;
        const auto b = std::filesystem::file_size(in.survivors_dir + "/" + std::to_string(i + 1) + ".fa", ec);
        if (!ec) bytes[i] = static_cast<double>(b);
    }
    return bytes;
}

// One model's survivors, read whole, in record order.
struct ModelSurvivors {
    std::vector<SeqBatch> batches;
    std::vector<DomTarget> targets;
    std::vector<DomResult> results;
};

void read_survivors(const LastStageInput& in, size_t number, ModelSurvivors& s) {
    SeqReader reader(in.survivors_dir + "/" + std::to_string(number) + ".fa", Alphabet::amino());
    for (SeqBatch batch;; batch = SeqBatch{}) {
        if (in.stop_check) in.stop_check();
        if (!reader.next(batch)) break;
        s.batches.push_back(std::move(batch));
    }
    for (const SeqBatch& batch : s.batches)
        for (size_t j = 0; j < batch.size(); ++j)
            if (batch.length(j) > 0)
                s.targets.push_back({batch.names[j], {}, batch.descs[j], batch.seq(j),
                                     static_cast<int64_t>(batch.first_index + j)});
    s.results.assign(s.targets.size(), {});
}

// One model's kept hits from its results: each hit kept when hmmsearch
// would keep it (reportable against the targets read so far, unless -Z).
std::vector<DomHit> kept_hits(const LastStageInput& in, const Hmm& hmm, ModelSurvivors& s) {
    const HitThresholds t = model_thresholds(in.report, hmm, 0.0);
    std::vector<DomHit> kept;
    for (size_t j = 0; j < s.targets.size(); ++j) {
        DomResult& r = s.results[j];
        if (r.outcome == DomOutcome::no_domain) continue;
        if (r.outcome != DomOutcome::hit)
            throw LastStageStop("model " + hmm.name + ", target \"" + std::string(s.targets[j].name) + "\": " +
                                dom_outcome_error(r.outcome) + ", where hmmsearch 3.3.2 aborts the search");
        const double read_so_far = static_cast<double>(s.targets[j].seqidx + 1);
        if (!keeps_hit(t, read_so_far, r.hit.score, r.hit.lnP)) continue;
        // p7_Pipeline's sort key: by E-value unless inclusion is by score.
        r.hit.sortkey = t.inc_by_E ? -r.hit.lnP : r.hit.score;
        kept.push_back(std::move(r.hit));
    }
    return kept;
}

}  // namespace

std::string last_stage_refusal(const std::vector<std::string>& options) {
    // hmmsearch's own checks (no hmmsearch runs to make them): a refusal
    // goes to hmmsearch, which gives its message.
    std::vector<const HmmsearchOption*> given;
    for (size_t i = 0; i < options.size(); ++i) {
        const HmmsearchOption* o = find_hmmsearch_option(options[i]);
        if (!o || !o->covered) return "option " + options[i] + " is not covered by warpdp's last stage";
        given.push_back(o);
        if (o->value == OptionValue::none) continue;
        if (++i == options.size()) return "option " + options[i - 1] + " has no value";
        if (o->value == OptionValue::text) continue;
        const auto x = hmmsearch_number(*o, options[i]);
        if (!x) return "value " + options[i] + " of " + options[i - 1] + " is left to hmmsearch to judge";
        if (o->name == "--seed" && *x == 0) return "--seed 0 (a seed from the clock, no reseeding) is not covered";
    }
    const auto excludes = [](const HmmsearchOption* o, const HmmsearchOption* other) {
        const std::string list = " " + std::string(o->excludes), name = " " + std::string(other->name) + " ";
        return other != o && list.find(name) != std::string::npos;
    };
    for (const HmmsearchOption* o : given)
        for (const HmmsearchOption* other : given)
            if (excludes(o, other))
                return "options " + std::string(other->name) + " and " + std::string(o->name) + " exclude each other";
    return {};
}

void refuse_models_without_consensus(const std::vector<Hmm>& models) {
    for (const Hmm& h : models)
        if (h.consensus.empty())
            throw LastStageStop("model " + h.name + " has no consensus line, where hmmsearch 3.3.2 aborts the search");
}

namespace {

// One model's pieces of the five texts.
struct ModelTexts {
    std::string main, tbl, dom, ali, pfam;
};

ModelTexts model_texts(const LastStageInput& in, const Hmm& hmm, const nlohmann::json& m, size_t i,
                       ModelSurvivors& s) {
    PipelineStats stats;
    stats.nnodes = hmm.M;
    stats.nseqs = static_cast<int64_t>(count(in.filters, "Z"));
    stats.nres = static_cast<int64_t>(count(in.filters, "residues"));
    stats.n_past_msv = static_cast<int64_t>(count(m, "passed_msv"));
    stats.n_past_bias = static_cast<int64_t>(count(m, "passed_bias"));
    stats.n_past_vit = static_cast<int64_t>(count(m, "passed_vit"));
    stats.n_past_fwd = static_cast<int64_t>(count(m, "passed_fwd"));
    const QueryReport q = finish_query(hmm, kept_hits(in, hmm, s), in.report, stats);
    ModelTexts t;
    t.main = main_output_query(q, in.report, times_since(in.start_seconds), in.ali_out);
    t.tbl = tblout_query(q, i == 0);
    t.dom = domtblout_query(q, i == 0);
    t.pfam = pfamtblout_query(q);
    if (!in.ali_out.empty()) t.ali = stockholm_alignment(q, in.report, in.author);
    return t;
}

}  // namespace

std::vector<size_t> last_stage_groups(const std::vector<double>& survivor_bytes, const std::vector<double>& work,
                                      unsigned workers) {
    double total = 0;
    for (double w : work) total += w;
    const double want = std::max(1.0, total / (2.0 * std::max(1u, workers)));
    std::vector<size_t> first;
    double work_in = want, bytes_in = 0;  // (the first model opens a group)
    for (size_t i = 0; i < survivor_bytes.size(); ++i) {
        if (work_in >= want || bytes_in >= kLastStageGroupBytes) {
            first.push_back(i);
            work_in = bytes_in = 0;
        }
        work_in += work[i];
        bytes_in += survivor_bytes[i];
    }
    first.push_back(survivor_bytes.size());
    return first;
}

// Workers take groups of consecutive models in order from one counter and
// search each group's survivors together (its models share the engine's
// batches); each model's texts are appended as soon as those of every model
// before it are (§16.10). After a model fails, no later group starts, and
// the earlier ones still running finish: the first model that fails is the
// one the serial search reports.
LastStageTexts run_last_stage(const LastStageInput& in, const std::vector<Hmm>& models,
                              const LastStageEngines& engines) {
    const nlohmann::json& per_model = in.filters.at("models");
    const size_t n = models.size();
    if (per_model.size() != n)
        throw InternalError("gpu-viterbi reports " + std::to_string(per_model.size()) + " models, the file holds " +
                            std::to_string(n));
    std::vector<std::unique_ptr<DomEngine>> own(std::clamp<size_t>(engines.workers, 1, std::max<size_t>(n, 1)));
    for (auto& e : own) e = engines.make();
    LastStageTexts out;
    out.main = main_output_header(in.header, in.report);

    std::mutex mu;
    std::vector<std::optional<ModelTexts>> done(n);  // finished, not yet appended
    size_t appended = 0;
    std::atomic<size_t> next{0}, failed{n};
    std::exception_ptr failure;
    const std::vector<size_t> groups = last_stage_groups(survivor_bytes(in, n), last_stage_cells(in, models),
                                                         static_cast<unsigned>(own.size()));
    DomSettings settings;
    settings.null2 = !in.report.nonull2;
    settings.seed = static_cast<uint32_t>(in.report.seed.value_or(42));
    // A group's failure is its first model's, or the model whose results
    // stop the search: either way the first failing group holds the first
    // failing model.
    const auto fail_at = [&](size_t i) {
        const std::lock_guard<std::mutex> lock(mu);
        if (i < failed.load()) {
            failed.store(i);
            failure = std::current_exception();
        }
    };
    const auto work = [&](DomEngine& engine) {
        for (size_t g; (g = next.fetch_add(1)) + 1 < groups.size() && groups[g] < failed.load();) {
            const size_t first = groups[g], end = groups[g + 1];
            std::vector<ModelSurvivors> survivors(end - first);
            std::vector<FwdProfile> odds(end - first);
            std::vector<DomSearchCall> calls;
            try {
                for (size_t i = first; i < end; ++i) {
                    read_survivors(in, i + 1, survivors[i - first]);
                    odds[i - first] = build_fwd_profile(build_profile(models[i]));
                }
                for (size_t i = first; i < end; ++i) {
                    ModelSurvivors& s = survivors[i - first];
                    if (!s.targets.empty()) calls.push_back({{&models[i], &odds[i - first]}, s.targets, s.results});
                }
                if (in.stop_check) in.stop_check();
                engine.search(calls, settings);
            } catch (...) {
                return fail_at(first);
            }
            for (size_t i = first; i < end; ++i) {
                try {
                    ModelTexts t = model_texts(in, models[i], per_model[i], i, survivors[i - first]);
                    const std::lock_guard<std::mutex> lock(mu);
                    done[i] = std::move(t);
                    for (; appended < n && done[appended]; ++appended) {
                        ModelTexts& d = *done[appended];
                        out.main += d.main;
                        out.tbl += d.tbl;
                        out.dom += d.dom;
                        out.pfam += d.pfam;
                        out.ali += d.ali;
                        done[appended].reset();
                    }
                } catch (...) {
                    return fail_at(i);
                }
            }
        }
    };
    {
        std::vector<std::jthread> pool;
        for (size_t w = 1; w < own.size(); ++w) {
            try {
                pool.emplace_back(work, std::ref(*own[w]));
            } catch (const std::system_error&) {
                break;  // (fewer workers: the same texts)
            }
        }
        work(*own[0]);
    }  // jthreads join here
    out.engine = own[0]->name();
    if (own.size() > 1) out.engine += " x" + std::to_string(own.size());
    for (const auto& e : own) {
        const DomStageSeconds s = e->stage_seconds();
        out.seconds.parsers += s.parsers;
        out.seconds.planning += s.planning;
        out.seconds.envelopes += s.envelopes;
        out.seconds.alignment += s.alignment;
        out.seconds.finish += s.finish;
    }
    if (failure) std::rethrow_exception(failure);
    out.main += main_output_end();
    const std::string tail = table_tail(in.tail);
    out.tbl += tail;
    out.dom += tail;
    out.pfam += tail;
    return out;
}

std::vector<double> last_stage_cells(const LastStageInput& in, const std::vector<Hmm>& models) {
    std::vector<double> cells = survivor_bytes(in, models.size());
    for (size_t i = 0; i < models.size(); ++i) cells[i] *= models[i].M;
    return cells;
}

}  // namespace warpdp
