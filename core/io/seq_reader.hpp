// The sequence input layer: FASTA or FASTQ (plain, gzip or bgzip; "-" =
// stdin) read into SeqBatch-es sized for one host-to-device copy. With
// prefetch on, a reader thread parses the next batch while the caller works
// on the current one, so I/O and digitisation hide behind the search.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/base/alphabet.hpp"
#include "core/io/seq_batch.hpp"

namespace warpdp {

struct SeqReaderOptions {
    // A batch closes before the record that would take it over batch_residues
    // (a record longer than that forms a batch of its own) or at batch_records.
    uint64_t batch_residues = 64ull << 20;
    size_t batch_records = 1u << 20;
    // Parse the next batch in a background thread (at most one batch ahead).
    bool prefetch = true;
    // Longer records are an InputError (guards against absurd inputs).
    uint64_t max_record_residues = 0xFFFFFFFFull;
    // Bytes asked of the decompressor at a time. Tiny values put record and
    // line boundaries across reads; tests and the fuzzer use them.
    size_t read_block_bytes = size_t{1} << 20;
    // Threads that parse FASTA, plain or compressed (FASTQ is parsed by one):
    // records, batches and errors are the same for any number.
    unsigned parse_threads = 1;
    // Text parsed by one thread at a time (more when one record is longer).
    size_t parse_block_bytes = size_t{4} << 20;
};

class SeqReader {
public:
    // Opens the file now: a missing file is InputError(path, 0, "cannot open: ...").
    SeqReader(const std::string& path, const Alphabet& abc, SeqReaderOptions opt = {});
    ~SeqReader();
    SeqReader(const SeqReader&) = delete;
    SeqReader& operator=(const SeqReader&) = delete;

    // Clears `batch` and fills it with the next records; false (batch empty)
    // at the end of the input. Errors in the input, whichever thread met
    // them, are thrown here as InputError; after one, next() returns false.
    [[nodiscard]] bool next(SeqBatch& batch);

    const std::string& path() const;
    // Records returned by next() so far.
    uint64_t records_read() const;
    // Decompressed input bytes consumed up to the last batch returned (this
    // may include records of the following batches).
    uint64_t bytes_read() const;

private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace warpdp
