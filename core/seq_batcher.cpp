// SeqBatcher: batch boundaries exactly as SeqReaderOptions documents them.
#include "core/seq_batcher.hpp"

#include <algorithm>
#include <utility>

namespace warpdp {
namespace {
constexpr uint64_t kMaxReserve = uint64_t{1} << 30;
}  // namespace

SeqBatcher::SeqBatcher(const std::string& path, const Alphabet& abc, const SeqReaderOptions& opt)
    : parser_(path, abc, opt.max_record_residues, opt.read_block_bytes),
      batch_residues_(opt.batch_residues),
      batch_records_(std::max<size_t>(opt.batch_records, 1)) {}

bool SeqBatcher::fill(SeqBatch& batch) {
    batch.clear();
    batch.first_index = next_index_;
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    // Reserving the whole batch at once spares the copies and page faults
    // of growing it by doubling; untouched reserved pages cost nothing.
    batch.residues.reserve(std::min<uint64_t>(batch_residues_ + 1, kMaxReserve));
    if (held_) {
        batch.residues.assign(held_residues_.begin(), held_residues_.end());
        batch.close_record(std::move(held_name_), std::move(held_desc_));
        held_ = false;
    }
    while (batch.size() < batch_records_) {
        const size_t before = batch.residues.size();
        try {
            if (!parser_.next(batch.residues, name_, desc_)) break;
        } catch (...) {
            if (batch.empty()) throw;
            batch.residues.resize(before);  // drop the broken record's residues
            error_ = std::current_exception();
            break;
        }
        if (batch.size() > 0 && batch.residues.size() > batch_residues_) {
            held_residues_.assign(batch.residues.begin() + static_cast<std::ptrdiff_t>(before),
                                  batch.residues.end());
            batch.residues.resize(before);
            held_name_ = std::move(name_);
            held_desc_ = std::move(desc_);
            held_ = true;
            break;
        }
        batch.close_record(std::move(name_), std::move(desc_));
    }
    next_index_ += batch.size();
    return !batch.empty();
}

}  // namespace warpdp
