// Groups parsed records into batches by the SeqReaderOptions limits. The one
// record that overflows a batch is held back and opens the next batch, since
// its length is known only after it has been parsed.
#pragma once

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "core/seq_batch.hpp"
#include "core/seq_parser.hpp"
#include "core/seq_reader.hpp"

namespace warpdp {

class SeqBatcher {
public:
    SeqBatcher(const std::string& path, const Alphabet& abc, const SeqReaderOptions& opt);

    // Fills `batch` (cleared first); false when no record was left. An
    // error in the input surfaces after the batch of the records before it.
    [[nodiscard]] bool fill(SeqBatch& batch);

    const std::string& path() const noexcept { return parser_.path(); }
    uint64_t bytes_consumed() const noexcept { return parser_.bytes_consumed(); }

private:
    SeqParser parser_;
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
