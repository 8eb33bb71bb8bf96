// SwSearch: the queries, the chunk loop and its CPU fallback, the finish,
// the summary; the pass over the database.
#include "tools/sw/sw_search.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>

#include "core/base/alphabet.hpp"
#include "tools/common/progress.hpp"

namespace warpdp {

SeqReaderOptions sw_reader_options(unsigned threads, uint64_t batch_residues) {
    SeqReaderOptions o;
    o.parse_threads = threads;
    o.batch_residues = batch_residues;
    o.batch_records = size_t{1} << 26;
    o.max_record_residues = kSwMaxLength;
    return o;
}

SwQueries read_sw_queries(const std::string& path, const SwCodes& codes, unsigned threads) {
    SwQueries q;
    SeqReader reader(path, Alphabet::amino(), sw_reader_options(threads, uint64_t{1} << 26));
    SeqBatch b;
    while (reader.next(b))
        for (size_t r = 0; r < b.size(); ++r) {
            q.names.push_back(b.names[r]);
            std::vector<uint8_t> c, k;
            c.reserve(static_cast<size_t>(b.length(r)));
            k.reserve(static_cast<size_t>(b.length(r)));
            for (uint8_t x : b.seq(r)) {
                c.push_back(codes.to_matrix[x]);
                k.push_back(codes.to_class[x]);
            }
            q.codes.push_back(std::move(c));
            q.classes.push_back(std::move(k));
        }
    if (q.names.empty()) throw InputError(path, 0, "no sequences");
    return q;
}

SwSearch::SwSearch(const SwScoring& scoring, const SwCodes& codes, SwQueries queries, SwSearchOptions opt)
    : scoring_(scoring), codes_(codes), queries_(std::move(queries)), opt_(std::move(opt)),
      hits_(queries_.names.size()) {}

void SwSearch::note_engine(const std::string& name) {
    if (tally_.engine.empty()) tally_.engine = name;
    else if (tally_.engine != name && tally_.engine.find('+') == std::string::npos) tally_.engine += "+" + name;
}

void SwSearch::search(SeqBatch& chunk, SwEngine& engine, const CpuFor& cpu_for, const QueryDone& progress,
                      bool rank_beside) {
    // Identity classes are kept only for a chunk holding a letter the matrix lacks.
    std::vector<uint8_t> classes;
    const auto own_class = [&](uint8_t x) { return codes_.own_class(x); };
    if (std::any_of(chunk.residues.begin(), chunk.residues.end(), own_class)) {
        classes.resize(chunk.residues.size());
        std::transform(chunk.residues.begin(), chunk.residues.end(), classes.begin(),
                       [&](uint8_t x) { return codes_.to_class[x]; });
    }
    for (uint8_t& x : chunk.residues) x = codes_.to_matrix[x];

    const auto e0 = std::chrono::steady_clock::now();
    SwEngine* on = &engine;
    try {
        engine.load(chunk, scoring_);
    } catch (const ResourceError& e) {
        on = &cpu_for(e);
        on->load(chunk, scoring_);
    }
    note_engine(on->name());
    SwEngine* cpu = nullptr;  // for the queries `on` refuses
    // Two score buffers: query q's ranking may run beside query q+1's scan.
    std::vector<int32_t> buffers[2] = {std::vector<int32_t>(chunk.size()), std::vector<int32_t>(chunk.size())};
    std::vector<std::shared_ptr<const SwHitTarget>> copies(chunk.size());
    std::future<void> ranking;  // waited for before the next one starts: one ranking at a time, queries in order
    for (size_t q = 0; q < queries_.codes.size(); ++q) {
        std::vector<int32_t>& scores = buffers[q % 2];
        SwEngine* by = on;
        try {
            on->score(queries_.codes[q], scores);
        } catch (const ResourceError& e) {
            if (on != &engine) throw;  // already the CPU's
            if (!cpu) {
                cpu = &cpu_for(e);
                cpu->load(chunk, scoring_);
                note_engine(cpu->name());
            }
            by = cpu;
            cpu->score(queries_.codes[q], scores);
        }
        const SwEngineStats st = by->last_stats();
        tally_.cells += st.cells;
        tally_.recomputed += st.recomputed;
        if (ranking.valid()) ranking.get();
        const auto rank = [this, q, &scores, &chunk, &classes, &copies] {
            merge_sw_chunk(hits_[q], scores, chunk, classes, opt_.max_hits, opt_.min_score, copies);
        };
        if (rank_beside) ranking = std::async(std::launch::async, rank);
        else rank();
        progress(q, tally_.targets + chunk.size() * (q + 1) / queries_.codes.size());
    }
    if (ranking.valid()) ranking.get();
    tally_.engine_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - e0).count();
    tally_.targets += chunk.size();
    tally_.residues += chunk.total_residues();
    ++tally_.chunks;
}

void SwSearch::search(SeqBatch& chunk, SwEngines& engines, const QueryDone& progress) {
    SwEngine& engine = *engines.for_chunk();
    const bool cuda = engines.on_cuda();
    search(
        chunk, engine,
        [&engines, cuda](const ResourceError& e) -> SwEngine& {
            if (!cuda) throw e;
            return *engines.cpu_for(e);
        },
        progress, cuda);
}

void SwSearch::finish(unsigned threads) {
    // The search space is the query's length times the database's residues,
    // known only now (docs/sw.md §7).
    if (opt_.statistics)
        for (size_t q = 0; q < hits_.size(); ++q)
            cut_sw_hits_by_evalue(hits_[q], *opt_.statistics,
                                  static_cast<double>(queries_.codes[q].size()) * static_cast<double>(tally_.residues),
                                  opt_.max_evalue);
    const auto t0 = std::chrono::steady_clock::now();
    if (opt_.alignments) trace_sw_hits(hits_, queries_.codes, queries_.classes, scoring_, threads);
    tally_.traceback_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    tally_.hits = 0;
    for (const auto& h : hits_) tally_.hits += h.size();
}

void SwSearch::write(SwWriter& w) {
    w.header();
    for (size_t q = 0; q < hits_.size(); ++q)
        for (const SwHit& x : hits_[q]) {
            SwHitRow row;
            row.query = &queries_.names[q];
            row.target = &x.target->name;
            row.qlen = queries_.codes[q].size();
            row.tlen = x.target->residues.size();
            row.score = x.score;
            if (opt_.statistics) {
                row.bits = sw_bit_score(*opt_.statistics, x.score);
                row.evalue = x.evalue;
            }
            if (opt_.alignments) {
                row.alignment = &x.alignment;
                row.counts = x.counts;
            }
            w.write(row);
        }
}

namespace {
double gcups(const SwTally& t) {
    return t.engine_seconds > 0 ? static_cast<double>(t.cells) / t.engine_seconds / 1e9 : 0.0;
}
}  // namespace

nlohmann::ordered_json sw_stats(const SwTally& t, const SwMatrix& matrix, SwGapCosts gaps,
                                const std::optional<SwKarlinParams>& k, size_t queries, const std::string& device,
                                unsigned threads, double seconds) {
    nlohmann::ordered_json s;
    s["tool"] = "gpu-sw";
    s["device"] = device;
    s["engine"] = t.engine;
    s["threads"] = threads;
    s["matrix"] = matrix.name();
    s["gap_open"] = gaps.open;
    s["gap_extend"] = gaps.extend;
    if (k)
        s["statistics"] = {{"matrix", k->matrix}, {"blast_existence", k->existence},
                           {"blast_extension", k->extension}, {"lambda", k->lambda}, {"K", k->K}};
    s["queries"] = queries;
    s["targets"] = t.targets;
    s["residues"] = t.residues;
    s["chunks"] = t.chunks;
    s["hits"] = t.hits;
    s["cells"] = t.cells;
    s["recomputed_32bit"] = t.recomputed;
    s["seconds"] = seconds;
    s["engine_seconds"] = t.engine_seconds;
    s["traceback_seconds"] = t.traceback_seconds;
    s["gcups"] = gcups(t);
    return s;
}

std::string sw_summary_line(const SwTally& t, size_t queries, const std::string& device, double seconds) {
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "%zu queries, %llu targets (%llu residues), %llu hits, device %s (%s), %.3f s, %.2f GCUPS in the "
                  "engine (%.3f s), tracebacks %.3f s",
                  queries, static_cast<unsigned long long>(t.targets), static_cast<unsigned long long>(t.residues),
                  static_cast<unsigned long long>(t.hits), device.c_str(), t.engine.c_str(), seconds, gcups(t),
                  t.engine_seconds, t.traceback_seconds);
    return buf;
}

void run_sw_stage(SwSearch& search, SeqReader& reader, SwEngines& engines, Progress& progress) {
    const std::string of_queries = " of " + std::to_string(search.queries().names.size());
    SeqBatch chunk;
    while (reader.next(chunk))
        search.search(chunk, engines, [&](size_t q, uint64_t targets) {
            progress.update(targets, "chunk " + std::to_string(search.tally().chunks + 1) + ", query " +
                                         std::to_string(q + 1) + of_queries);
        });
    progress.finish();
}

}  // namespace warpdp
