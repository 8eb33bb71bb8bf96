// Groups parsed records into batches by the SeqReaderOptions limits. The one
// record that overflows a batch is held back and opens the next batch, since
// its length is known only after it has been parsed.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "core/io/fasta_blocks.hpp"
#include "core/io/seq_batch.hpp"
#include "core/io/seq_parser.hpp"
#include "core/io/seq_reader.hpp"

namespace warpdp {

class SeqBatcher {
public:
    SeqBatcher(const std::string& path, const Alphabet& abc, const SeqReaderOptions& opt);

    // Fills `batch` (cleared first); false when no record was left. An
    // error in the input surfaces after the batch of the records before it.
    [[nodiscard]] bool fill(SeqBatch& batch);

    const std::string& path() const noexcept { return path_; }
    uint64_t bytes_consumed() const noexcept {
        return parser_ ? parser_->bytes_consumed() : blocks_->bytes_consumed();
    }

private:
    std::string path_;
    std::unique_ptr<SeqParser> parser_;    // FASTQ, or one thread
    std::unique_ptr<FastaBlocks> blocks_;  // FASTA on several threads
    FastaPiece piece_;                     // blocks_'s current piece
    size_t piece_next_ = 0;                // its next record
    uint64_t batch_residues_;
    size_t batch_records_;
    uint64_t block_bytes_;
    uint64_t next_index_ = 0;  // record number of the next record to hand out
    bool held_ = false;        // a record is waiting for the next batch
    std::vector<uint8_t> held_residues_;
    std::string held_name_, held_desc_;
    std::string name_, desc_;  // scratch
    // An input error met after complete records: those go out first.
    std::exception_ptr error_;
};

}  // namespace warpdp
