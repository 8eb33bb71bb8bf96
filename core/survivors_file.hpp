// The FASTA file of the targets that survive the filters (gpu-viterbi
// --survivors): the targets the final `hmmsearch -Z <Z>` searches again.
//
// Spread for hmmsearch's threads. hmmsearch's reader hands its worker threads
// blocks of 1,000 records, or fewer when a block reaches 1 MiB of residues
// (Easel's sqascii_ReadBlock), so a few thousand survivors make a few blocks
// and keep a few threads busy; and the expensive survivors (true homologs,
// whose domains hmmsearch then defines) often sit together in a database. With
// spreading on, the survivors, still in database order, are cut into runs of
// about equal expected hmmsearch work and each run is topped up to a whole
// block with empty records, so that every block hmmsearch reads is one run.
// hmmsearch skips empty targets, and nothing it prints depends on them: Z is
// fixed by -Z, domZ counts reported targets, and every target's domain
// sampling is seeded by the target itself. Only its pipeline statistics count
// them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/output_file.hpp"
#include "core/seq_batch.hpp"

namespace warpdp {

// hmmsearch's block limits (Easel: 1,000 sequences, MAX_RESIDUE_COUNT residues).
inline constexpr size_t kHmmsearchBlockRecords = 1000;
inline constexpr uint64_t kHmmsearchBlockResidues = uint64_t{1} << 20;
// The name of the empty records that top up a run.
inline constexpr const char* kSpreadFillerName = "warpdp-empty";

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
    // runs_per_model = 0: the survivors as they are; else each model's work
    // is cut into about that many runs (hmmsearch searches the models one
    // after another, each over all its threads).
    SurvivorsFile(const std::string& path, size_t runs_per_model);
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
    // Writes the file (spread if asked) and renames it into place.
    void commit();

private:
    OutputFile out_;
    size_t runs_;  // per model
    std::FILE* spill_ = nullptr;  // spread: the records until commit(), unlinked
    std::vector<uint64_t> starts_{0};  // spread: byte offset of each record in spill_, and the end
    std::vector<uint64_t> residues_;
    std::vector<uint32_t> work_first_{0};  // survivor i's entries: work_[work_first_[i] .. work_first_[i+1])
    std::vector<ModelWork> work_;
    std::string record_;
};

// gpu-viterbi --model-survivors DIR: each model's survivors, chunk by chunk
// as the filters find them, in DIR/<i>.fa (i: the model's 1-based position
// in its file), for one hmmsearch per model that searches while the filters
// still run (gpu-hmmsearch makes them FIFOs). Each output is written by a
// thread of its own (AsyncOutputFile), so a reader that lags never stops the
// filters. With spreading on, a chunk's survivors of a model are cut into
// about that many runs of equal expected work, each topped up to a whole
// hmmsearch block (a reader must not wait for records that come only with
// the next chunk). An output that got no survivor holds one empty record:
// hmmsearch refuses an empty file, and skips empty targets.
class ModelSurvivorStreams {
public:
    ModelSurvivorStreams(const std::string& dir, size_t models, size_t runs_per_chunk);
    ~ModelSurvivorStreams();
    ModelSurvivorStreams(const ModelSurvivorStreams&) = delete;
    ModelSurvivorStreams& operator=(const ModelSurvivorStreams&) = delete;

    // Appends the survivors `targets` (indices into b, increasing) of model
    // `model`, with their hmmsearch_work().
    void add(size_t model, const SeqBatch& b, std::span<const uint32_t> targets, std::span<const double> work);
    void commit();

private:
    struct Stream;
    std::vector<std::unique_ptr<Stream>> streams_;
    size_t runs_;
};

// The FASTA text of target t of b, 60 residues a line; gaps as '.', which
// hmmsearch's FASTA reader accepts ('-' it rejects).
void format_fasta_record(const SeqBatch& b, size_t t, std::string& text);

}  // namespace warpdp
