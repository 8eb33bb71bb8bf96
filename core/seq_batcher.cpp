// SeqBatcher: batch boundaries exactly as SeqReaderOptions documents them.
// A batch's name and description strings are overwritten, not freed and
// reallocated: SeqBatch::clear() would free a few hundred thousand strings
// per batch, and the allocator's churn (and the heap trimming that comes
// with it) cost more than parsing.
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
      batch_records_(std::max<size_t>(opt.batch_records, 1)),
      block_bytes_(opt.read_block_bytes) {}

bool SeqBatcher::fill(SeqBatch& batch) {
    size_t n = 0;  // records closed so far
    batch.descs.resize(batch.names.size());
    batch.residues.clear();
    batch.offsets.assign(1, 0);
    batch.first_index = next_index_;
    const auto close = [&](const std::string& name, const std::string& desc) {
        if (n < batch.names.size()) {
            batch.names[n] = name;
            batch.descs[n] = desc;
        } else {
            batch.names.push_back(name);
            batch.descs.push_back(desc);
        }
        batch.offsets.push_back(batch.residues.size());
        ++n;
    };
    const auto finish = [&] {
        batch.names.resize(n);
        batch.descs.resize(n);
        next_index_ += n;
        return n > 0;
    };

    if (error_) {
        (void)finish();
        std::rethrow_exception(std::exchange(error_, nullptr));
    }
    // Reserving the whole batch at once spares the copies and page faults
    // of growing it by doubling; untouched reserved pages cost nothing. The
    // parser may overshoot the limit by one read block before the batch
    // closes, hence the slack.
    batch.residues.reserve(std::min<uint64_t>(batch_residues_ + block_bytes_ + 1, kMaxReserve));
    if (held_) {
        batch.residues.assign(held_residues_.begin(), held_residues_.end());
        close(held_name_, held_desc_);
        held_ = false;
    }
    while (n < batch_records_) {
        const size_t before = batch.residues.size();
        try {
            if (!parser_.next(batch.residues, name_, desc_)) break;
        } catch (...) {
            if (n == 0) {
                (void)finish();
                throw;
            }
            batch.residues.resize(before);  // drop the broken record's residues
            error_ = std::current_exception();
            break;
        }
        if (n > 0 && batch.residues.size() > batch_residues_) {
            held_residues_.assign(batch.residues.begin() + static_cast<std::ptrdiff_t>(before),
                                  batch.residues.end());
            batch.residues.resize(before);
            std::swap(held_name_, name_);
            std::swap(held_desc_, desc_);
            held_ = true;
            break;
        }
        close(name_, desc_);
    }
    return finish();
}

}  // namespace warpdp
