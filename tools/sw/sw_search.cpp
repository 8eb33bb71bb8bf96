// SwSearch: the options' checks, the queries, the chunk loop and its CPU
// fallback, the finish, the summary.
#include "tools/sw/sw_search.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/base/alphabet.hpp"

namespace warpdp {

void check_sw_args(const SwArgs& a, SwFormat format) {
    // Boost reads "-1" into these unsigned options as their largest value;
    // the message names the range, which starts at 1 (check_at_most's at 0).
    if (a.max_hits == 0) throw UsageError("--max-hits must be at least 1");
    if (a.max_hits > 10'000'000) throw UsageError("--max-hits must be a whole number from 1 to 10000000");
    if (a.chunk_residues == 0) throw UsageError("--chunk-residues must be at least 1");
    if (a.chunk_residues > uint64_t{1} << 40)
        throw UsageError("--chunk-residues must be a whole number from 1 to " + std::to_string(uint64_t{1} << 40));
    if (a.min_score < 1 || a.min_score > (int64_t{1} << 31) - 1)
        throw UsageError("--min-score must be a whole number from 1 to 2^31 - 1, not " + std::to_string(a.min_score));
    if (a.max_evalue && !(*a.max_evalue > 0)) throw UsageError("--evalue must be a number above 0");
    if (a.max_evalue && a.no_evalue) throw UsageError("--evalue and --no-evalue exclude each other");
    if (a.cigar && a.score_only) throw UsageError("--cigar needs alignments: not with --score-only");
    if (format == SwFormat::m8 && a.score_only) throw UsageError("--format m8 needs alignments: not with --score-only");
    if (format == SwFormat::m8 && a.no_evalue) throw UsageError("--format m8 needs E-values: not with --no-evalue");
    if (a.query == "-" && a.db == "-") throw UsageError("--query and --db cannot both be stdin");
    if (a.matrix == "-" && (a.query == "-" || a.db == "-"))
        throw UsageError(std::string("--matrix and ") + (a.query == "-" ? "--query" : "--db") + " cannot both be stdin");
    // BLAST's terms (docs/sw.md §1): open 0 is a linear gap cost, extend 0 a
    // constant one; a one-residue gap, open + extend, must cost something,
    // and at most 1000 (the engines' bound: §6).
    if (a.gap_open < 0 || a.gap_open > 1000)
        throw UsageError("--gap-open must be a whole number from 0 to 1000, not " + std::to_string(a.gap_open));
    if (a.gap_extend < 0 || a.gap_extend > 1000)
        throw UsageError("--gap-extend must be a whole number from 0 to 1000, not " + std::to_string(a.gap_extend));
    if (a.gap_open + a.gap_extend < 1 || a.gap_open + a.gap_extend > 1000)
        throw UsageError("--gap-open + --gap-extend (a one-residue gap's cost) must be from 1 to 1000, not " +
                         std::to_string(a.gap_open + a.gap_extend));
}

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

void SwSearch::search(SeqBatch& chunk, SwEngine& engine, const CpuFor& cpu_for, const QueryDone& progress) {
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
    std::vector<int32_t> scores(chunk.size());
    std::vector<std::shared_ptr<const SwHitTarget>> copies(chunk.size());
    for (size_t q = 0; q < queries_.codes.size(); ++q) {
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
        merge_sw_chunk(hits_[q], scores, chunk, classes, opt_.max_hits, opt_.min_score, copies);
        progress(q, tally_.targets + chunk.size() * (q + 1) / queries_.codes.size());
    }
    tally_.engine_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - e0).count();
    tally_.targets += chunk.size();
    tally_.residues += chunk.total_residues();
    ++tally_.chunks;
}

void SwSearch::search(SeqBatch& chunk, SwEngines& engines, const QueryDone& progress) {
    SwEngine& engine = *engines.for_chunk();
    const bool cuda = engines.on_cuda();
    search(chunk, engine, [&engines, cuda](const ResourceError& e) -> SwEngine& {
        if (!cuda) throw e;
        return *engines.cpu_for(e);
    }, progress);
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

}  // namespace warpdp
