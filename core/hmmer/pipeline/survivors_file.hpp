// The FASTA file of the targets that survive the filters (gpu-viterbi
// --survivors), which the final hmmsearch searches again: in database order,
// optionally spread into runs of equal expected work topped up to whole
// hmmsearch blocks with empty records, or written in place (each survivor at
// its record number, an empty record for every other target) for a run
// without -Z. Why each layout keeps hmmsearch's output: docs/hmmer-filters.md
// §9.2.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/io/output_file.hpp"
#include "core/io/seq_batch.hpp"

namespace warpdp {

// hmmsearch's block limits (Easel: 1,000 sequences, MAX_RESIDUE_COUNT residues).
inline constexpr size_t kHmmsearchBlockRecords = 1000;
inline constexpr uint64_t kHmmsearchBlockResidues = uint64_t{1} << 20;
// The name of the empty records that top up a run.
inline constexpr const char* kSpreadFillerName = "warpdp-empty";
// The name of the empty records that stand for the targets between survivors
// kept in place (short: there is one for nearly every target).
inline constexpr const char* kPlaceFillerName = "e";

// How the survivors are laid out: as found, spread into runs, or in place.
struct SurvivorsLayout {
    size_t spread_runs = 0;   // > 0: spread into about that many runs (per model, or per chunk for streams)
    bool in_place = false;    // excludes spreading
};

// hmmsearch's expected work on a target of length L that passed the Viterbi
// filter of a model of M nodes, with Viterbi (or, when the filter was
// skipped, MSV) P-value p: Forward always; when it is likely to pass the
// Forward filter too (p <= 1e-5, hmmsearch's default F3), Backward, posterior
// decoding and domain definition, roughly ten times more. Only a weight for
// balancing threads: any value gives the same hmmsearch output.
double hmmsearch_work(uint64_t L, int M, double p);

// Where each run of the spread survivors starts (increasing, the first 0,
// empty for n = 0). residues[i] and work[i] describe survivor i. A run ends
// when it holds kHmmsearchBlockRecords records, when its residues reach
// kHmmsearchBlockResidues (where hmmsearch's own block ends), or, when there
// are fewer than runs x kHmmsearchBlockRecords survivors, when the work so far
// passes the next of `runs` equal shares of the total.
std::vector<size_t> spread_runs(std::span<const uint64_t> residues, std::span<const double> work, size_t runs);

// How many empty records top up a run of `records` records and `residues`
// residues that is not the last: those that make it a whole hmmsearch block.
size_t spread_fillers(size_t records, uint64_t residues);

class SurvivorsFile {
public:
    // Writes into `out`, which the caller made and commits after finish()
    // (a tool's outputs are committed together: tools/common/tool_outputs).
    // layout.spread_runs = 0: the survivors as they are; else each model's
    // work is cut into about that many runs (hmmsearch searches the models
    // one after another, each over all its threads).
    SurvivorsFile(OutputFile& out, SurvivorsLayout layout);
    ~SurvivorsFile();
    SurvivorsFile(const SurvivorsFile&) = delete;
    SurvivorsFile& operator=(const SurvivorsFile&) = delete;

    struct ModelWork {
        uint32_t model;
        double work;  // hmmsearch_work() for this model
    };
    // Appends target t of b (call in database order); `work` has an entry for
    // each model the target survived.
    void add(const SeqBatch& b, size_t t, std::span<const ModelWork> work);
    // Writes the rest of the file (spread or in place if asked: then up to
    // the database's `records`). Once, after the last add().
    void finish(uint64_t records);

private:
    OutputFile& out_;
    size_t runs_;  // per model
    bool in_place_;
    uint64_t next_place_ = 0;  // in place: the database record the file has reached
    std::FILE* spill_ = nullptr;  // spread: the records until commit(), unlinked
    std::vector<uint64_t> starts_{0};  // spread: byte offset of each record in spill_, and the end
    std::vector<uint64_t> residues_;
    std::vector<uint32_t> work_first_{0};  // survivor i's entries: work_[work_first_[i] .. work_first_[i+1])
    std::vector<ModelWork> work_;
    std::string record_;
};

// gpu-viterbi --model-survivors DIR: each model's survivors, chunk by chunk,
// in DIR/<i>.fa (i: the model's 1-based position), for one hmmsearch per
// model that searches while the filters run (docs/hmmer-filters.md §9.2).
// Each output has a writer thread (AsyncOutputFile), so a lagging reader
// never stops the filters; spreading tops up each chunk's runs to whole
// blocks, and an output without survivors holds one empty record (hmmsearch
// refuses an empty file).
class ModelSurvivorStreams {
public:
    ModelSurvivorStreams(const std::string& dir, size_t models, SurvivorsLayout layout);
    ~ModelSurvivorStreams();
    ModelSurvivorStreams(const ModelSurvivorStreams&) = delete;
    ModelSurvivorStreams& operator=(const ModelSurvivorStreams&) = delete;

    // Appends the survivors `targets` (indices into b, increasing) of model
    // `model`, with their hmmsearch_work().
    void add(size_t model, const SeqBatch& b, std::span<const uint32_t> targets, std::span<const double> work);
    // Ends every output (in place: up to the database's `records`).
    void commit(uint64_t records);

private:
    struct Stream;
    std::vector<std::unique_ptr<Stream>> streams_;
    SurvivorsLayout layout_;
};

// The FASTA text of target t of b, 60 residues a line; gaps as '.', which
// hmmsearch's FASTA reader accepts ('-' it rejects).
void format_fasta_record(const SeqBatch& b, size_t t, std::string& text);

}  // namespace warpdp
