// gpu-sw's stage of the run skeleton (docs/sw.md §8): every query held, the
// database searched chunk by chunk (each chunk loaded into the engine once
// for all queries), the hits ranked as they come (tools/sw/sw_hits), then,
// once the database's size is known, E-values, the --evalue cut and the
// alignments; the rows for SwWriter, --stats's JSON and the summary line.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/errors.hpp"
#include "core/io/seq_batch.hpp"
#include "core/io/seq_reader.hpp"
#include "core/sw/sw_engine.hpp"
#include "core/sw/sw_stats.hpp"
#include "tools/common/tool_engines.hpp"
#include "tools/sw/sw_hits.hpp"
#include "tools/sw/sw_matrix_choice.hpp"
#include "tools/sw/sw_output.hpp"

namespace warpdp {

class Progress;

using SwEngines = ToolEngines<std::unique_ptr<SwEngine>>;

// The reader's options for queries and database: `batch_residues` a chunk.
SeqReaderOptions sw_reader_options(unsigned threads, uint64_t batch_residues);

// The queries, held for the whole run, as matrix codes and identity classes.
struct SwQueries {
    std::vector<std::string> names;
    std::vector<std::vector<uint8_t>> codes, classes;
};
// Every query of `path`; InputError when it holds none.
SwQueries read_sw_queries(const std::string& path, const SwCodes& codes, unsigned threads);

struct SwSearchOptions {
    uint64_t max_hits = 500;
    int64_t min_score = 1;
    std::optional<SwKarlinParams> statistics;  // none with --no-evalue
    std::optional<double> max_evalue;
    bool alignments = true;                    // not with --score-only
};

struct SwTally {
    uint64_t targets = 0, residues = 0, chunks = 0;
    uint64_t cells = 0, recomputed = 0;  // as the engines report them
    uint64_t hits = 0;                   // reported, once finished
    double engine_seconds = 0;           // loads, scores and the ranking
    double traceback_seconds = 0;
    std::string engine;                  // the engines' names, "a+b" when the CPU took some work
};

class SwSearch {
public:
    SwSearch(const SwScoring& scoring, const SwCodes& codes, SwQueries queries, SwSearchOptions opt);

    // Searches one database chunk (its residues become matrix codes) with
    // every query, on `engine`. cpu_for(why) gives CPU engines for work
    // `engine` refuses with a ResourceError, or throws: the whole chunk when
    // load() refuses it, a query when score() does. progress(q, targets)
    // after query q: the targets every query has searched, this chunk's
    // counted by the share of its queries done.
    using CpuFor = std::function<SwEngine&(const ResourceError&)>;
    using QueryDone = std::function<void(size_t, uint64_t)>;
    // rank_beside: each query's ranking runs on a second thread while the
    // engine scans the next query (worth it when the engine is a GPU's; the
    // hits are the same either way).
    void search(SeqBatch& chunk, SwEngine& engine, const CpuFor& cpu_for, const QueryDone& progress,
                bool rank_beside = false);
    // The same on the run's engines: refused work goes to the CPU under
    // --device auto (ToolEngines' policy).
    void search(SeqBatch& chunk, SwEngines& engines, const QueryDone& progress);

    // Once the whole database is read: E-values and the --evalue cut, then
    // the alignments (threads share every hit of every query).
    void finish(unsigned threads);
    // Writes every hit: queries in file order, each query's hits by rank.
    void write(SwWriter& w);

    const SwQueries& queries() const noexcept { return queries_; }
    const std::vector<std::vector<SwHit>>& hits() const noexcept { return hits_; }
    const SwTally& tally() const noexcept { return tally_; }

private:
    void note_engine(const std::string& name);

    SwScoring scoring_;
    const SwCodes& codes_;
    SwQueries queries_;
    SwSearchOptions opt_;
    std::vector<std::vector<SwHit>> hits_;
    SwTally tally_;
};

// gpu-sw's pass over the database: every chunk of `reader` searched on the
// run's engines, progress told after each query of each chunk.
void run_sw_stage(SwSearch& search, SeqReader& reader, SwEngines& engines, Progress& progress);

// The run summary: --stats's JSON (its gap_open and gap_extend are the
// options', BLAST's convention) and the line on stderr.
nlohmann::ordered_json sw_stats(const SwTally& t, const SwMatrix& matrix, SwGapCosts gaps,
                                const std::optional<SwKarlinParams>& k, size_t queries, const std::string& device,
                                unsigned threads, double seconds);
std::string sw_summary_line(const SwTally& t, size_t queries, const std::string& device, double seconds);

}  // namespace warpdp
