#include "tools/hmmer/hmmsearch_last_stage.hpp"

#include <chrono>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

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

// One model's kept hits: its survivors, read in record order, each searched,
// each hit kept when hmmsearch would keep it (reportable against the
// targets read so far, unless -Z).
std::vector<DomHit> model_hits(const LastStageInput& in, const Hmm& hmm, size_t number, DomEngine& engine) {
    const FwdProfile odds = build_fwd_profile(build_profile(hmm));
    const DomModel model{&hmm, &odds};
    DomSettings settings;
    settings.null2 = !in.report.nonull2;
    settings.seed = static_cast<uint32_t>(in.report.seed.value_or(42));
    const HitThresholds t = model_thresholds(in.report, hmm, 0.0);
    std::vector<DomHit> kept;
    SeqReader reader(in.survivors_dir + "/" + std::to_string(number) + ".fa", Alphabet::amino());
    SeqBatch batch;
    std::vector<DomTarget> targets;
    std::vector<DomResult> results;
    while (reader.next(batch)) {
        targets.clear();
        for (size_t j = 0; j < batch.size(); ++j)
            if (batch.length(j) > 0)
                targets.push_back({batch.names[j], {}, batch.descs[j], batch.seq(j),
                                   static_cast<int64_t>(batch.first_index + j)});
        results.assign(targets.size(), {});
        engine.search(model, targets, settings, results);
        for (size_t j = 0; j < targets.size(); ++j) {
            DomResult& r = results[j];
            if (r.outcome == DomOutcome::no_domain) continue;
            if (r.outcome != DomOutcome::hit)
                throw LastStageStop("model " + hmm.name + ", target \"" + std::string(targets[j].name) + "\": " +
                                    dom_outcome_error(r.outcome) + ", where hmmsearch 3.3.2 aborts the search");
            const double read_so_far = static_cast<double>(targets[j].seqidx + 1);
            if (!keeps_hit(t, read_so_far, r.hit.score, r.hit.lnP)) continue;
            // p7_Pipeline's sort key: by E-value unless inclusion is by score.
            r.hit.sortkey = t.inc_by_E ? -r.hit.lnP : r.hit.score;
            kept.push_back(std::move(r.hit));
        }
    }
    return kept;
}

}  // namespace

std::string last_stage_refusal(const std::vector<std::string>& options) {
    // Options with a value, and what hmmsearch accepts for it (its own
    // checks, made here because no hmmsearch runs to make them).
    enum class Value { any_number, positive, textw, seed, count, path };
    static const std::map<std::string, Value> with_value{
        {"-o", Value::path},          {"-A", Value::path},          {"--tblout", Value::path},
        {"--domtblout", Value::path}, {"--pfamtblout", Value::path}, {"--textw", Value::textw},
        {"-E", Value::positive},      {"-T", Value::any_number},    {"--domE", Value::positive},
        {"--domT", Value::any_number}, {"--incE", Value::positive}, {"--incT", Value::any_number},
        {"--incdomE", Value::positive}, {"--incdomT", Value::any_number}, {"-Z", Value::positive},
        {"--domZ", Value::positive},  {"--seed", Value::seed},      {"--F1", Value::any_number},
        {"--F2", Value::any_number},  {"--F3", Value::any_number},  {"--cpu", Value::count},
        {"--tformat", Value::path}};
    static const std::set<std::string> switches{"--acc",    "--noali",  "--notextw", "--cut_ga", "--cut_nc",
                                                "--cut_tc", "--nobias", "--nonull2", "--max"};
    // hmmsearch's exclusions (its option table): which given options each
    // one refuses beside it.
    const std::string cuts = " --cut_ga --cut_nc --cut_tc ";
    const std::string thresholds = " -E -T --domE --domT --incE --incT --incdomE --incdomT ";
    const std::map<std::string, std::string> excludes{
        {"-E", " -T" + cuts},           {"-T", " -E" + cuts},
        {"--domE", " --domT" + cuts},   {"--domT", " --domE" + cuts},
        {"--incE", " --incT" + cuts},   {"--incT", " --incE" + cuts},
        {"--incdomE", " --incdomT" + cuts}, {"--incdomT", " --incdomE" + cuts},
        {"--cut_ga", thresholds + cuts}, {"--cut_nc", thresholds + cuts}, {"--cut_tc", thresholds + cuts},
        {"--notextw", " --textw "},     {"--textw", " --notextw "},
        {"--max", " --F1 --F2 --F3 --nobias "}, {"--F1", " --max "}, {"--F2", " --max "}, {"--F3", " --max "},
        {"--nobias", " --max "}};
    std::set<std::string> given;
    for (size_t i = 0; i < options.size(); ++i) {
        const std::string& opt = options[i];
        if (!given.insert(opt).second) return "option " + opt + " is given twice";
        if (const auto ex = excludes.find(opt); ex != excludes.end())
            for (const std::string& other : given)
                if (other != opt && ex->second.find(" " + other + " ") != std::string::npos)
                    return "options " + other + " and " + opt + " exclude each other";
        if (switches.count(opt)) continue;
        const auto it = with_value.find(opt);
        if (it == with_value.end()) return "option " + opt + " is not covered by warpdp's last stage";
        if (++i == options.size()) return "option " + opt + " has no value";
        const std::string& v = options[i];
        char* end = nullptr;
        const double x = std::strtod(v.c_str(), &end);
        const bool number = !v.empty() && end && *end == '\0';
        const bool whole = number && v.find_first_not_of("0123456789") == std::string::npos;
        bool ok = true;
        switch (it->second) {
            case Value::any_number: ok = number; break;
            case Value::positive: ok = number && x > 0; break;
            case Value::textw: ok = whole && x >= 120; break;
            case Value::count: ok = whole; break;
            case Value::seed:
                if (whole && x == 0) return "--seed 0 (a seed from the clock, no reseeding) is not covered";
                ok = whole && x < 4294967296.0;
                break;
            case Value::path: break;
        }
        if (!ok) return "value " + v + " of " + opt + " is left to hmmsearch to judge";
    }
    return {};
}

std::string last_stage_refusal(const std::vector<Hmm>& models) {
    for (const Hmm& h : models) {
        if (h.alph != AlphabetKind::amino) return "model " + h.name + " is not an amino model";
        if (h.consensus.empty()) return "model " + h.name + " has no consensus line";
    }
    return {};
}

LastStageTexts run_last_stage(const LastStageInput& in, const std::vector<Hmm>& models, DomEngine& engine) {
    const nlohmann::json& per_model = in.filters.at("models");
    if (per_model.size() != models.size())
        throw InternalError("gpu-viterbi reports " + std::to_string(per_model.size()) + " models, the file holds " +
                            std::to_string(models.size()));
    LastStageTexts out;
    out.main = main_output_header(in.header, in.report);
    for (size_t i = 0; i < models.size(); ++i) {
        const Hmm& hmm = models[i];
        const nlohmann::json& m = per_model[i];
        PipelineStats stats;
        stats.nnodes = hmm.M;
        stats.nseqs = static_cast<int64_t>(count(in.filters, "Z"));
        stats.nres = static_cast<int64_t>(count(in.filters, "residues"));
        stats.n_past_msv = static_cast<int64_t>(count(m, "passed_msv"));
        stats.n_past_bias = static_cast<int64_t>(count(m, "passed_bias"));
        stats.n_past_vit = static_cast<int64_t>(count(m, "passed_vit"));
        stats.n_past_fwd = static_cast<int64_t>(count(m, "passed_fwd"));
        const QueryReport q = finish_query(hmm, model_hits(in, hmm, i + 1, engine), in.report, stats);
        out.main += main_output_query(q, in.report, times_since(in.start_seconds), in.ali_out);
        out.tbl += tblout_query(q, i == 0);
        out.dom += domtblout_query(q, i == 0);
        out.pfam += pfamtblout_query(q);
        if (!in.ali_out.empty()) out.ali += stockholm_alignment(q, in.report, in.author);
    }
    out.main += main_output_end();
    const std::string tail = table_tail(in.tail);
    out.tbl += tail;
    out.dom += tail;
    out.pfam += tail;
    return out;
}

}  // namespace warpdp
