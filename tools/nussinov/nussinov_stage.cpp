// NussinovStage: codes, memory plan, the fold and its CPU fallback; the
// pass over the input.
#include "tools/nussinov/nussinov_stage.hpp"

#include <chrono>
#include <cstdio>
#include <span>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/base/trace.hpp"
#include "core/io/distinct_paths.hpp"
#include "core/nussinov/nussinov_cpu.hpp"
#include "core/io/seq_reader.hpp"
#include "core/nussinov/rna_codes.hpp"
#include "tools/common/progress.hpp"

namespace warpdp {

void check_nussinov_cpu_memory(const std::string& name, uint64_t n, const NussinovParams& p, uint64_t budget) {
    const uint64_t bytes = nussinov_cpu_table_bytes(n, p);
    if (bytes <= budget) return;
    char need[32], have[32];
    std::snprintf(need, sizeof need, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
    std::snprintf(have, sizeof have, "%.1f GiB", static_cast<double>(budget) / (1ull << 30));
    throw ResourceError("sequence " + quoted_name(name) + " (" + std::to_string(n) + " bases) needs " + need +
                        " for the CPU engine's table, more than the " + have + " it may take on this host: " +
                        "sequences up to " + std::to_string(nussinov_cpu_max_length(p, budget)) + " bases fit");
}

nlohmann::ordered_json nussinov_stats(const NussinovTally& t, const NussinovParams& p, bool with_structure,
                                      const std::string& device, double seconds) {
    nlohmann::ordered_json s;
    s["tool"] = "gpu-nussinov";
    s["device"] = device;
    s["engine"] = t.engine;
    s["sequences"] = t.sequences;
    s["bases"] = t.bases;
    s["other_letters"] = t.other;
    s["min_loop"] = p.min_loop;
    s["gu"] = p.gu;
    s["weights"] = {{"GC", p.w_gc}, {"AU", p.w_au}, {"GU", p.w_gu}};
    s["structure"] = with_structure;
    s["seconds"] = seconds;
    s["engine_seconds"] = t.engine_seconds;
    s["steps"] = t.steps;
    s["steps_per_second"] = t.engine_seconds > 0 ? t.steps / t.engine_seconds : 0.0;
    return s;
}

std::string nussinov_summary_line(const NussinovTally& t, const std::string& device, double seconds) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%llu sequences, %llu bases, device %s (%s), %.3f s, %.4f T steps/s in the engine (%.3f s)",
                  static_cast<unsigned long long>(t.sequences), static_cast<unsigned long long>(t.bases),
                  device.c_str(), t.engine.c_str(), seconds,
                  t.engine_seconds > 0 ? t.steps / t.engine_seconds / 1e12 : 0.0, t.engine_seconds);
    return buf;
}

namespace {
// An engine's refusal of one sequence of `batch`, with that sequence's name.
ResourceError naming(const SeqBatch& batch, const ResourceError& e) {
    const auto* one = dynamic_cast<const NussinovSequenceError*>(&e);
    if (!one || one->index() >= batch.size()) return e;
    return ResourceError("sequence " + quoted_name(batch.names[one->index()]) + ": " + e.what());
}
}  // namespace

NussinovStage::NussinovStage(const NussinovParams& params, bool with_structure, bool vienna, uint64_t cpu_budget)
    : params_(params), with_structure_(with_structure), vienna_(vienna), cpu_budget_(cpu_budget) {}

std::vector<NussinovResult> NussinovStage::run(SeqBatch& batch, const Alphabet& abc, NussinovEngines& engines) {
    std::vector<NussinovResult> results(batch.size());
    std::vector<std::span<const uint8_t>> seqs;
    for (size_t r = 0; r < batch.size(); ++r) {
        const std::span<uint8_t> s(batch.residues.data() + batch.offsets[r], static_cast<size_t>(batch.length(r)));
        if (vienna_)
            for (uint8_t c : s) results[r].letters += abc.symbol(c);
        const uint64_t k = to_rna_engine_codes(s);
        if (k && tally_.other == 0) tally_.first_other = batch.names[r];
        tally_.other += k;
        tally_.bases += s.size();
        const double n = static_cast<double>(s.size());
        tally_.steps += (n * n * n - n) / 6;
        seqs.push_back(s);
    }
    auto& engine = engines.for_chunk();
    trace_event("engine-ready");
    const auto note_engine = [&](const std::string& name) {
        if (tally_.engine.empty()) tally_.engine = name;
        else if (tally_.engine != name && tally_.engine.find('+') == std::string::npos) tally_.engine += "+" + name;
    };
    std::vector<NussinovFold> folds(batch.size());
    const auto t0 = std::chrono::steady_clock::now();
    const auto check_all = [&] {
        for (size_t r = 0; r < batch.size(); ++r) check_nussinov_cpu_memory(batch.names[r], seqs[r].size(), params_, cpu_budget_);
    };
    if (!engines.on_cuda()) check_all();
    try {
        engine->fold(seqs, params_, with_structure_, folds);
        note_engine(engine->name());
    } catch (const ResourceError& e) {
        if (!engines.on_cuda()) throw naming(batch, e);
        // A sequence too long for the GPUs folds on the CPU if the host holds it.
        auto& cpu = engines.cpu_for(naming(batch, e));
        check_all();
        try {
            cpu->fold(seqs, params_, with_structure_, folds);
        } catch (const ResourceError& again) {
            throw naming(batch, again);
        }
        note_engine(engine->name());
        note_engine(cpu->name());
    }
    tally_.engine_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    tally_.sequences += batch.size();
    for (size_t r = 0; r < batch.size(); ++r) {
        results[r].name = std::move(batch.names[r]);
        results[r].desc = std::move(batch.descs[r]);
        results[r].length = seqs[r].size();
        results[r].fold = std::move(folds[r]);
    }
    return results;
}

std::string nussinov_other_letters_warning(const NussinovTally& t, const std::string& path) {
    if (!t.other) return "";
    return path + ": " + std::to_string(t.other) + " letter" + (t.other == 1 ? "" : "s") +
           " other than A, C, G, U and T (IUPAC codes such as N, gaps) never pair, the first in record " +
           quoted_name(t.first_other) + " (--strict rejects them)";
}

void run_nussinov_stage(SeqReader& reader, const Alphabet& abc, bool strict, NussinovStage& stage,
                        NussinovEngines& engines, NussinovWriter& writer, OutputFile& out, Progress& progress) {
    SeqBatch batch;
    for (uint64_t number = 0;; ++number) {
        try {
            if (!reader.next(batch)) break;
        } catch (const InputError& e) {
            if (!strict) throw;
            throw InputError(e.file(), e.line(), e.message() + " (--strict accepts A, C, G, U and T only)");
        }
        trace_event("read", number);
        const auto results = stage.run(batch, abc, engines);
        trace_event("folded", number);
        if (stage.tally().sequences == results.size()) writer.header();
        for (const auto& r : results) writer.write(r.name, r.desc, r.letters, r.length, r.fold);
        out.flush();
        trace_event("written", number);
        progress.update(stage.tally().sequences, std::to_string(stage.tally().bases) + " bases");
    }
    progress.finish();
}

}  // namespace warpdp
