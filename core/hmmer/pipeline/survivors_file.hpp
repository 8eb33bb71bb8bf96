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
//
// In place (gpu-hmmsearch's layout for serial runs, --cpu 0 or 1). Without -Z, hmmsearch decides which
// hits to keep by the E-value against the number of targets its pipeline has
// read *so far*, and sizes the name columns of its outputs over every kept
// hit, reported or not; with -Z every hit is judged against the whole
// database, so a long-named hit kept early in a plain run is missing and the
// column is narrower (found by audits, on ordinary data, with serial
// hmmsearch). With places kept, each survivor is written at its place in the
// database, an empty record (">e") standing for every other target, so that
// hmmsearch run *without* -Z reads the survivors at the counts plain
// hmmsearch reads them at, Z included, and keeps the same hits. Empty records
// cost serial hmmsearch little. (With threads each worker counts what it has
// read itself, which depends on timing, in plain hmmsearch too; and on a big
// database the empty records cost a threaded run more than they are worth:
// docs/benchmarks.md.)
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

// gpu-viterbi --model-survivors DIR: each model's survivors, chunk by chunk
// as the filters find them, in DIR/<i>.fa (i: the model's 1-based position
// in its file), for one hmmsearch per model that searches while the filters
// still run (gpu-hmmsearch makes them FIFOs). Each output is written by a
// thread of its own (AsyncOutputFile), so a reader that lags never stops the
// filters. In place, the outputs are filled as SurvivorsFile's are. With spreading on, a chunk's survivors of a model are cut into
// about that many runs of equal expected work, each topped up to a whole
// hmmsearch block (a reader must not wait for records that come only with
// the next chunk). An output that got no survivor holds one empty record:
// hmmsearch refuses an empty file, and skips empty targets.
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
