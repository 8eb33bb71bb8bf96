// The NW stage: reads, table, chunks, the three overlapping steps.
#include "tools/nw/nw_stage.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>

#include "core/base/errors.hpp"
#include "core/nw/nw_pair_order.hpp"

namespace warpdp {

NwReads load_nw_reads(const std::string& path, const NwReadOptions& opt,
                      const std::function<void(const std::string&)>& warn) {
    constexpr uint64_t kShownCuts = 10;
    uint64_t cuts = 0;
    auto on_cut = [&](uint64_t line, const std::string& record, char c) {
        if (++cuts > kShownCuts) return;
        const unsigned char u = static_cast<unsigned char>(c);
        const std::string shown = u >= 0x20 && u < 0x7f ? std::string("'") + c + "'" : "byte " + std::to_string(u);
        warn(path + ":" + std::to_string(line) + ": read " + quoted_name(record) + ": line cut at " + shown +
             " (not a " + nw_metric_name(opt.metric) + " letter; AmpliconNoise drops the rest of the line, so do we; " +
             "--strict rejects such input)");
    };
    NwReads reads = read_nw_reads(path, opt, on_cut);
    if (cuts > kShownCuts)
        warn(std::to_string(cuts) + " lines were cut in all (" + std::to_string(cuts - kShownCuts) + " more not shown)");
    return reads;
}

std::vector<uint32_t> nw_read_lengths(const NwReads& reads) {
    std::vector<uint32_t> lengths(reads.size());
    for (uint64_t i = 0; i < reads.size(); ++i) lengths[i] = reads.length(i);
    return lengths;
}

RowRange nw_row_range(const std::string& rows, const std::string& tile, const std::vector<uint32_t>& lengths) {
    if (!rows.empty()) return parse_rows(rows, lengths.size());
    if (!tile.empty()) return parse_tile(tile, lengths);
    return RowRange{0, lengths.size()};
}

NwEngine& load_nw_engine(NwEngines& engines, const NwReads& reads, const NwCodedReads& coded) {
    NwEngine* engine = engines.for_chunk().get();
    try {
        engine->load(reads, coded);
    } catch (const ResourceError& e) {
        engine = engines.cpu_for(e).get();
        engine->load(reads, coded);
    }
    return *engine;
}

uint64_t nw_chunk_budget(uint64_t chunk_pairs, const NwEngines& engines) {
    if (chunk_pairs) return chunk_pairs;
    const uint64_t gpus = engines.on_cuda() ? engines.gpu_count() : 0;
    return gpus ? (uint64_t{1} << 24) * gpus : uint64_t{1} << 20;
}

SeqDistTable choose_seqdist_table(const std::string& lookup, const std::function<void(const std::string&)>& note) {
    if (!lookup.empty()) return read_seqdist_table(lookup);
    const char* env = std::getenv("SEQ_LOOKUP_FILE");
    if (env == nullptr) return tran_dat();
    if (*env == '\0') throw UsageError("SEQ_LOOKUP_FILE is set but empty (unset it to use the built-in Tran.dat)");
    note(env);
    try {
        return read_seqdist_table(env);
    } catch (const InputError& e) {  // the user may not know the variable is set
        throw InputError(e.file(), e.line(), e.message() + " (named by SEQ_LOOKUP_FILE)");
    }
}

std::vector<RowRange> nw_row_chunks(const RowRange& r, uint64_t budget) {
    std::vector<RowRange> out;
    for (uint64_t i = r.begin; i < r.end;) {
        uint64_t e = i, pairs = 0;
        do pairs += e++;
        while (e < r.end && pairs + e <= budget);
        out.push_back({i, e});
        i = e;
    }
    return out;
}

namespace {
double gcups(const NwStageTally& t) {
    return t.engine_seconds > 0 ? static_cast<double>(t.cells) / t.engine_seconds / 1e9 : 0.0;
}
}  // namespace

nlohmann::ordered_json nw_stats(const NwRunReport& r) {
    nlohmann::ordered_json s;
    s["tool"] = "gpu-nw-dist";
    s["device"] = r.device;
    s["engine"] = r.engine;
    s["threads"] = r.threads;
    s["metric"] = nw_metric_name(r.metric);
    s["reads"] = r.reads;
    s["rows"] = {r.rows.begin, r.rows.end};
    s["pairs"] = r.tally.pairs;
    s["cells"] = r.tally.cells;
    s["seconds"] = r.seconds;
    s["engine_seconds"] = r.tally.engine_seconds;
    s["gcups"] = gcups(r.tally);
    if (r.within_max_dist) s["pairs_within_max_dist"] = *r.within_max_dist;
    return s;
}

std::string nw_summary_line(const NwRunReport& r) {
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "%s, %llu reads, rows %llu:%llu, %llu pairs, %llu cells, device %s (%s), %.3f s, %.2f GCUPS in the "
                  "engine (%.3f s)", nw_metric_name(r.metric), static_cast<unsigned long long>(r.reads),
                  static_cast<unsigned long long>(r.rows.begin), static_cast<unsigned long long>(r.rows.end),
                  static_cast<unsigned long long>(r.tally.pairs), static_cast<unsigned long long>(r.tally.cells),
                  r.device.c_str(), r.engine.c_str(), r.seconds, gcups(r.tally), r.tally.engine_seconds);
    std::string line = buf;
    if (r.within_max_dist) line += ", " + std::to_string(*r.within_max_dist) + " pairs within --max-dist";
    return line;
}

NwStageTally compute_nw_rows(NwEngine& engine, const std::vector<uint32_t>& lengths, const RowRange& rows,
                             uint64_t budget, NwMatrixWriter& writer, const std::function<void(uint64_t)>& progress) {
    struct Work {
        std::vector<NwPair> pairs;
        std::vector<uint64_t> position;
    };
    const NwPairOrder order(lengths);
    const std::vector<RowRange> chunks = nw_row_chunks(rows, budget);
    auto list = [&order, &chunks](size_t c) {
        Work w;
        order.pairs(chunks[c], w.pairs, w.position);
        return w;
    };
    NwStageTally t;
    std::future<Work> listing;
    if (!chunks.empty()) listing = std::async(std::launch::async, list, size_t{0});
    std::future<void> writing;
    for (size_t ci = 0; ci < chunks.size(); ++ci) {
        const RowRange c = chunks[ci];
        Work w = listing.get();
        if (ci + 1 < chunks.size()) listing = std::async(std::launch::async, list, ci + 1);
        std::vector<double> values(w.pairs.size());
        const auto e0 = std::chrono::steady_clock::now();
        engine.compute(w.pairs, values);
        t.engine_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - e0).count();
        if (writing.valid()) writing.get();
        writing = std::async(std::launch::async, [&writer, c, values = std::move(values), w = std::move(w)] {
            std::vector<double> row_major(values.size());
            for (size_t k = 0; k < values.size(); ++k) row_major[w.position[k]] = values[k];
            writer.rows(c.begin, c.end - c.begin, row_major);
        });
        t.pairs += pairs_in(c);
        t.cells += cells_in(c, lengths);
        progress(t.pairs);
    }
    if (writing.valid()) writing.get();
    return t;
}

}  // namespace warpdp
