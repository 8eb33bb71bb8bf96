// gpu-sw: Smith-Waterman protein database search (docs/sw.md): every query
// against every target of a database read once, in chunks, each chunk
// loaded into the engine (resident on the GPUs) once for all queries; per
// query the best --max-hits targets by score (ties in database order), their
// bit scores and E-values, and their alignments traced on the host; TSV,
// JSON Lines or BLAST's tabular m8.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/base/parallel.hpp"
#include "core/io/distinct_paths.hpp"
#include "core/io/output_file.hpp"
#include "core/io/seq_reader.hpp"
#include "core/sw/sw_cpu.hpp"
#include "core/sw/sw_engine.hpp"
#include "core/sw/sw_matrix.hpp"
#include "core/sw/sw_stats.hpp"
#include "core/sw/sw_traceback.hpp"
#include "kernels/sw/sw_cuda.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/device_choice.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/sw/sw_output.hpp"

using namespace warpdp;
namespace po = boost::program_options;

namespace {

constexpr const char* kTool = "gpu-sw";

const char* kSummary =
    "Smith-Waterman local alignment of protein queries against a protein database, with BLAST-tabular hits "
    "(docs/sw.md). A gap of k residues costs OPEN + (k - 1) EXTEND (parasail_aligner -o OPEN -e EXTEND, CUDASW++); "
    "in BLAST's terms that is gap existence OPEN - EXTEND and extension EXTEND (-gapopen 10 -gapextend 1 for the "
    "defaults), in FASTA's ssearch36 -f -(OPEN - EXTEND) -g -EXTEND (-f -10 -g -1). Letters the matrix lacks (U, O, "
    "J with the built-ins, in either case) and '.', '_' and '~' score as its '*' (as "
    "parasail_aligner scores them); '-', digits and other characters are input errors.";

struct Args {
    std::string query, db, matrix = "BLOSUM62", stats;
    int64_t gap_open = 11, gap_extend = 1;
    uint64_t max_hits = 500, chunk_residues = uint64_t{1} << 30;
    int64_t min_score = 1;
    double evalue = 0;
    bool no_evalue = false, cigar = false, score_only = false;
};

// Sequences as matrix codes, with their names, and their identity classes.
struct Seqs {
    std::vector<std::string> names;
    std::vector<std::vector<uint8_t>> codes, classes;
};

// Easel's amino codes (what the reader gives) to the matrix's codes, by letter.
std::vector<uint8_t> code_map(const SwMatrix& m) {
    const Alphabet& abc = Alphabet::amino();
    std::vector<uint8_t> map(static_cast<size_t>(abc.Kp()));
    for (int c = 0; c < abc.Kp(); ++c) map[static_cast<size_t>(c)] = m.code_of(static_cast<unsigned char>(abc.symbol(c)));
    return map;
}

// Identity classes of Easel's amino codes: what the identity, mismatch and
// percent identity columns compare. BLAST counts a pair identical when its
// letters are, but the letters a matrix lacks (U, O, J with the built-ins)
// all take its unknown code: each of them gets a class of its own past the
// matrix's codes; any other letter's class is its code.
std::vector<uint8_t> identity_classes(const SwMatrix& m, const std::vector<uint8_t>& to_matrix) {
    const Alphabet& abc = Alphabet::amino();
    const char unknown_letter = m.letters()[m.unknown_code()];
    std::vector<uint8_t> cls(to_matrix.size());
    for (size_t c = 0; c < cls.size(); ++c) {
        const bool shares = to_matrix[c] == m.unknown_code() && abc.symbol(static_cast<int>(c)) != unknown_letter;
        cls[c] = static_cast<uint8_t>(shares ? kSwMaxLetters + c : to_matrix[c]);
    }
    return cls;
}

SeqReaderOptions reader_options(unsigned threads, uint64_t batch_residues) {
    SeqReaderOptions o;
    o.parse_threads = threads;
    o.batch_residues = batch_residues;
    o.batch_records = size_t{1} << 26;
    o.max_record_residues = kSwMaxLength;
    return o;
}

// A kept target's name and residues, copied out of its chunk (gone by the
// time it is aligned), and its identity classes when they differ from its
// codes: one copy however many queries keep it.
struct HitTarget {
    std::string name;
    std::vector<uint8_t> residues, classes;
};

// A hit kept for a query: the target's index in the database and its copy.
struct Hit {
    int64_t score = 0;
    uint64_t index = 0;
    std::shared_ptr<const HitTarget> target;
    SwAlignment alignment;
    SwColumnCounts counts;
};

bool ranks_before(int64_t sa, uint64_t ia, int64_t sb, uint64_t ib) { return sa != sb ? sa > sb : ia < ib; }

// Merges the chunk's scores into a query's best `keep` hits (score >=
// min_score; equal scores in database order). classes: the chunk's identity
// classes, residue by residue, or empty where they are its codes. copies:
// one slot a chunk target, the copy the queries before this one made.
void merge_chunk(std::vector<Hit>& top, const std::vector<int32_t>& scores, const SeqBatch& chunk,
                 const std::vector<uint8_t>& classes, uint64_t keep, int64_t min_score,
                 std::vector<std::shared_ptr<const HitTarget>>& copies) {
    const bool full = top.size() >= keep;
    const int64_t floor = full ? top.back().score + 1 : min_score;  // a later target must beat the last kept
    std::vector<std::pair<int64_t, uint32_t>> cand;
    for (size_t t = 0; t < scores.size(); ++t)
        if (scores[t] >= floor) cand.emplace_back(scores[t], static_cast<uint32_t>(t));
    if (cand.empty()) return;
    const auto before = [](const std::pair<int64_t, uint32_t>& a, const std::pair<int64_t, uint32_t>& b) {
        return ranks_before(a.first, a.second, b.first, b.second);
    };
    if (cand.size() > keep) {
        std::nth_element(cand.begin(), cand.begin() + static_cast<std::ptrdiff_t>(keep), cand.end(), before);
        cand.resize(static_cast<size_t>(keep));
    }
    std::sort(cand.begin(), cand.end(), before);
    std::vector<Hit> merged;
    merged.reserve(std::min<uint64_t>(keep, top.size() + cand.size()));
    size_t a = 0, b = 0;
    while (merged.size() < keep && (a < top.size() || b < cand.size())) {
        const bool take_old = b == cand.size() ||
                              (a < top.size() && ranks_before(top[a].score, top[a].index, cand[b].first,
                                                              chunk.first_index + cand[b].second));
        if (take_old) {
            merged.push_back(std::move(top[a++]));
        } else {
            const uint32_t t = cand[b++].second;
            Hit h;
            h.score = scores[t];
            h.index = chunk.first_index + t;
            if (!copies[t]) {
                auto copy = std::make_shared<HitTarget>();
                copy->name = chunk.names[t];
                const auto s = chunk.seq(t);
                copy->residues.assign(s.begin(), s.end());
                if (!classes.empty())
                    copy->classes.assign(classes.begin() + static_cast<std::ptrdiff_t>(chunk.offsets[t]),
                                         classes.begin() + static_cast<std::ptrdiff_t>(chunk.offsets[t + 1]));
                copies[t] = std::move(copy);
            }
            h.target = copies[t];
            merged.push_back(std::move(h));
        }
    }
    top = std::move(merged);
}

int run(int argc, char** argv) {
    Cli cli(kTool, "gpu-sw --query QUERIES.fa --db DATABASE.fa [options]", kSummary);
    Args a;
    cli.tool_options().add_options()
        ("query", po::value<std::string>(&a.query)->required(), "protein queries (FASTA; plain, gzip or - for stdin)")
        ("db", po::value<std::string>(&a.db)->required(), "protein database (FASTA; plain, gzip or - for stdin)")
        ("matrix", po::value<std::string>(&a.matrix)->default_value("BLOSUM62"),
         "BLOSUM45, BLOSUM50, BLOSUM62 or BLOSUM80, or an NCBI-format matrix FILE")
        ("gap-open", po::value<int64_t>(&a.gap_open)->default_value(11), "cost of a gap's first residue (1..1000)")
        ("gap-extend", po::value<int64_t>(&a.gap_extend)->default_value(1), "cost of each further residue (0..gap-open)")
        ("max-hits", po::value<uint64_t>(&a.max_hits)->default_value(500),
         "report at most N targets a query, the best by score (equal scores: database order)")
        ("min-score", po::value<int64_t>(&a.min_score)->default_value(1), "report only scores >= S (S >= 1)")
        ("evalue", po::value<double>(&a.evalue), "report only E-values <= E")
        ("no-evalue", po::bool_switch(&a.no_evalue),
         "no bit scores or E-values (for a matrix and gap costs BLAST has no statistics for)")
        ("score-only", po::bool_switch(&a.score_only), "scores only: no traceback, no coordinate columns (tsv, jsonl)")
        ("cigar", po::bool_switch(&a.cigar), "add a CIGAR column (M, I: query residue against a gap, D: target residue)")
        ("chunk-residues", po::value<uint64_t>(&a.chunk_residues)->default_value(uint64_t{1} << 30),
         "database residues loaded into the engine at once")
        ("stats", po::value<std::string>(&a.stats), "also write the run summary as JSON to FILE");
    cli.set_formats({"tsv", "jsonl", "m8"});
    if (!cli.parse(argc, argv)) return 0;
    const auto& common = cli.common();
    const SwFormat format = parse_sw_format(common.format);
    // Boost reads "-1" into these unsigned options as their largest value;
    // the message names the range, which starts at 1 (check_at_most's at 0).
    if (a.max_hits == 0) throw UsageError("--max-hits must be at least 1");
    if (a.max_hits > 10'000'000) throw UsageError("--max-hits must be a whole number from 1 to 10000000");
    if (a.chunk_residues == 0) throw UsageError("--chunk-residues must be at least 1");
    if (a.chunk_residues > uint64_t{1} << 40)
        throw UsageError("--chunk-residues must be a whole number from 1 to " + std::to_string(uint64_t{1} << 40));
    if (a.min_score < 1 || a.min_score > (int64_t{1} << 31) - 1)
        throw UsageError("--min-score must be a whole number from 1 to 2^31 - 1, not " + std::to_string(a.min_score));
    const bool has_evalue = cli.vm().count("evalue") > 0;
    if (has_evalue && !(a.evalue > 0)) throw UsageError("--evalue must be a number above 0");
    if (has_evalue && a.no_evalue) throw UsageError("--evalue and --no-evalue exclude each other");
    if (a.cigar && a.score_only) throw UsageError("--cigar needs alignments: not with --score-only");
    if (format == SwFormat::m8 && a.score_only) throw UsageError("--format m8 needs alignments: not with --score-only");
    if (format == SwFormat::m8 && a.no_evalue) throw UsageError("--format m8 needs E-values: not with --no-evalue");
    if (a.query == "-" && a.db == "-") throw UsageError("--query and --db cannot both be stdin");
    if (a.matrix == "-" && (a.query == "-" || a.db == "-"))
        throw UsageError(std::string("--matrix and ") + (a.query == "-" ? "--query" : "--db") + " cannot both be stdin");
    if (a.gap_open < 1 || a.gap_open > 1000)
        throw UsageError("--gap-open must be a whole number from 1 to 1000, not " + std::to_string(a.gap_open));
    if (a.gap_extend < 0 || a.gap_extend > a.gap_open)
        throw UsageError("--gap-extend must be a whole number from 0 to --gap-open (" + std::to_string(a.gap_open) +
                         "), not " + std::to_string(a.gap_extend));
    refuse_shared_paths({{"--query", a.query}, {"--db", a.db}, {"--matrix", a.matrix}},
                        {common.output_path(), {"--stats", a.stats}});

    // The matrix: a built-in name, else a file.
    std::optional<SwMatrix> matrix_file;
    const SwMatrix* matrix = nullptr;
    {
        const auto names = SwMatrix::builtin_names();
        std::string upper = a.matrix;
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        if (std::find(names.begin(), names.end(), upper) != names.end()) {
            matrix = &SwMatrix::builtin(upper);
        } else if (a.matrix.empty()) {
            throw UsageError("--matrix is empty");
        } else if (a.matrix != "-" && !std::filesystem::exists(a.matrix)) {
            // Most likely a mistyped name: say which names there are.
            std::string known;
            for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
            throw InputError(a.matrix, 0, "no such file, and not a built-in matrix (" + known + ")");
        } else {
            matrix_file.emplace(SwMatrix::read_ncbi(a.matrix));
            matrix = &*matrix_file;
        }
    }
    SwScoring scoring{matrix, static_cast<int>(a.gap_open), static_cast<int>(a.gap_extend)};
    check_sw_scoring(scoring);
    std::optional<SwKarlinParams> karlin;
    const std::string stats_name = sw_statistics_name(*matrix);
    if (!a.no_evalue) {
        karlin = sw_karlin_params(stats_name, scoring.gap_open, scoring.gap_extend);
        if (!karlin) {
            const auto pairs = sw_karlin_gap_pairs(stats_name);
            std::string known;
            for (const auto& p : pairs) known += (known.empty() ? "" : ", ") + p;
            throw UsageError("BLAST has no statistics for " + stats_name + " with --gap-open " +
                             std::to_string(a.gap_open) + " --gap-extend " + std::to_string(a.gap_extend) +
                             (known.empty() ? std::string(" (it has none for this matrix)")
                                            : " (it has open/extend " + known + ")") +
                             "; --no-evalue reports scores without bit scores and E-values");
        }
    }

    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    const std::vector<uint8_t> to_matrix = code_map(*matrix);
    const std::vector<uint8_t> to_class = identity_classes(*matrix, to_matrix);

    // Every query, held for the whole run.
    Seqs queries;
    {
        SeqReader reader(a.query, Alphabet::amino(), reader_options(common.threads, uint64_t{1} << 26));
        SeqBatch b;
        while (reader.next(b))
            for (size_t r = 0; r < b.size(); ++r) {
                queries.names.push_back(b.names[r]);
                std::vector<uint8_t> c, k;
                c.reserve(static_cast<size_t>(b.length(r)));
                k.reserve(static_cast<size_t>(b.length(r)));
                for (uint8_t x : b.seq(r)) {
                    c.push_back(to_matrix[x]);
                    k.push_back(to_class[x]);
                }
                queries.codes.push_back(std::move(c));
                queries.classes.push_back(std::move(k));
            }
    }
    if (queries.names.empty()) throw InputError(a.query, 0, "no sequences");

    hide_unused_gpus(common.device, std::numeric_limits<double>::infinity());  // only an explicit list narrows
    const DeviceChoice dev = resolve_device(common.device);
    std::unique_ptr<SwEngine> engine;
    std::string device_text = dev.describe();
    if (dev.cuda) {
        try {
            engine = make_sw_cuda_engine(dev.gpus);
        } catch (const ResourceError& e) {
            if (common.device != "auto") throw;
            if (!common.quiet) warn(kTool, std::string(e.what()) + "; searching on the CPU");
            device_text = "cpu";
        }
    }
    if (!engine) engine = make_sw_cpu_engine(common.threads);

    OutputFile out(common.output);
    std::optional<OutputFile> stats_file;
    if (!a.stats.empty()) stats_file.emplace(a.stats);

    // The database, chunk by chunk: each chunk loaded once, every query run on it.
    std::vector<std::vector<Hit>> hits(queries.names.size());
    SeqReader reader(a.db, Alphabet::amino(), reader_options(common.threads, a.chunk_residues));
    SeqBatch chunk;
    uint64_t targets = 0, residues = 0, cells = 0, recomputed = 0, chunks = 0;
    double engine_s = 0;
    std::vector<int32_t> scores;
    std::vector<uint8_t> chunk_classes;  // kept only for a chunk holding a letter the matrix lacks
    while (reader.next(chunk)) {
        chunk_classes.clear();
        const auto own_class = [&](uint8_t x) { return to_class[x] != to_matrix[x]; };
        if (std::any_of(chunk.residues.begin(), chunk.residues.end(), own_class)) {
            chunk_classes.resize(chunk.residues.size());
            std::transform(chunk.residues.begin(), chunk.residues.end(), chunk_classes.begin(),
                           [&](uint8_t x) { return to_class[x]; });
        }
        for (uint8_t& x : chunk.residues) x = to_matrix[x];
        const auto e0 = clock::now();
        engine->load(chunk, scoring);
        scores.assign(chunk.size(), 0);
        std::vector<std::shared_ptr<const HitTarget>> copies(chunk.size());
        for (size_t q = 0; q < queries.codes.size(); ++q) {
            engine->score(queries.codes[q], scores);
            const SwEngineStats st = engine->last_stats();
            cells += st.cells;
            recomputed += st.recomputed;
            merge_chunk(hits[q], scores, chunk, chunk_classes, a.max_hits, a.min_score, copies);
            if (common.progress)
                std::fprintf(stderr, "\r%s: chunk %llu, query %zu of %zu   ", kTool,
                             static_cast<unsigned long long>(chunks + 1), q + 1, queries.codes.size());
        }
        engine_s += std::chrono::duration<double>(clock::now() - e0).count();
        targets += chunk.size();
        residues += chunk.total_residues();
        ++chunks;
    }
    if (common.progress) std::fputc('\n', stderr);
    if (targets == 0) throw InputError(a.db, 0, "no sequences in the database");

    // E-values (search space: query length x database residues), the
    // --evalue cut, then the alignments of what is left.
    struct Job {
        size_t q, h;
    };
    std::vector<Job> jobs;
    std::vector<std::vector<double>> evalues(hits.size());
    for (size_t q = 0; q < hits.size(); ++q) {
        auto& hq = hits[q];
        if (karlin) {
            const double space = static_cast<double>(queries.codes[q].size()) * static_cast<double>(residues);
            size_t keep = 0;
            for (; keep < hq.size(); ++keep) {
                const double e = sw_evalue(*karlin, hq[keep].score, space);
                if (has_evalue && e > a.evalue) break;  // E-values only grow down the list
                evalues[q].push_back(e);
            }
            hq.resize(keep);
        }
        for (size_t h = 0; h < hq.size(); ++h) jobs.push_back({q, h});
    }
    const auto tb0 = clock::now();
    if (!a.score_only) {
        parallel_for(jobs.size(), common.threads, 1, [&](size_t k) {
            Hit& h = hits[jobs[k].q][jobs[k].h];
            const auto& qc = queries.codes[jobs[k].q];
            const HitTarget& tg = *h.target;
            h.alignment = sw_align(qc, tg.residues, scoring);
            // The invariants every reported alignment keeps: the engine's score,
            // and that score again from the columns alone.
            if (h.alignment.score != h.score)
                throw InternalError("target " + quoted_name(tg.name) + ": the engine scored " + std::to_string(h.score) +
                                    ", the traceback " + std::to_string(h.alignment.score));
            if (sw_rescore(h.alignment, qc, tg.residues, scoring) != h.score)
                throw InternalError("target " + quoted_name(tg.name) + ": the alignment does not re-score to its score");
            h.counts = sw_count_columns(h.alignment, queries.classes[jobs[k].q],
                                        tg.classes.empty() ? tg.residues : tg.classes);
        });
    }
    const double traceback_s = std::chrono::duration<double>(clock::now() - tb0).count();

    SwWriter writer(out, format, !a.score_only, a.cigar);
    writer.header();
    uint64_t reported = 0;
    for (size_t q = 0; q < hits.size(); ++q)
        for (size_t h = 0; h < hits[q].size(); ++h) {
            const Hit& x = hits[q][h];
            SwHitRow row;
            row.query = &queries.names[q];
            row.target = &x.target->name;
            row.qlen = queries.codes[q].size();
            row.tlen = x.target->residues.size();
            row.score = x.score;
            if (karlin) {
                row.bits = sw_bit_score(*karlin, x.score);
                row.evalue = evalues[q][h];
            }
            if (!a.score_only) {
                row.alignment = &x.alignment;
                row.counts = x.counts;
            }
            writer.write(row);
            ++reported;
        }
    // Every output written and flushed before any is committed: a --stats
    // file that cannot be written (disk full) leaves no -o behind either.
    const double seconds = std::chrono::duration<double>(clock::now() - t0).count();
    const double gcups = engine_s > 0 ? static_cast<double>(cells) / engine_s / 1e9 : 0.0;
    if (stats_file) {
        nlohmann::ordered_json s;
        s["tool"] = kTool;
        s["device"] = device_text;
        s["engine"] = engine->name();
        s["matrix"] = matrix->name();
        s["gap_open"] = scoring.gap_open;
        s["gap_extend"] = scoring.gap_extend;
        if (karlin) {
            s["statistics"] = {{"matrix", karlin->matrix}, {"blast_existence", karlin->existence},
                               {"blast_extension", karlin->extension}, {"lambda", karlin->lambda}, {"K", karlin->K}};
        }
        s["queries"] = queries.names.size();
        s["targets"] = targets;
        s["residues"] = residues;
        s["chunks"] = chunks;
        s["hits"] = reported;
        s["cells"] = cells;
        s["recomputed_32bit"] = recomputed;
        s["seconds"] = seconds;
        s["engine_seconds"] = engine_s;
        s["traceback_seconds"] = traceback_s;
        s["gcups"] = gcups;
        stats_file->write(s.dump(2) + "\n");
        stats_file->flush();
    }
    out.commit();
    if (stats_file) stats_file->commit();
    if (!common.quiet)
        std::fprintf(stderr,
                     "%s: %zu queries, %llu targets (%llu residues), %llu hits, device %s (%s), %.3f s, %.2f GCUPS in "
                     "the engine (%.3f s), tracebacks %.3f s\n",
                     kTool, queries.names.size(), static_cast<unsigned long long>(targets),
                     static_cast<unsigned long long>(residues), static_cast<unsigned long long>(reported),
                     device_text.c_str(), engine->name().c_str(), seconds, gcups, engine_s, traceback_s);
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return run_tool(kTool, argc, argv, run); }
