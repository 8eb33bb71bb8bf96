// SeqBatcher: batch boundaries exactly as SeqReaderOptions documents them.
// A batch's name and description strings are swapped with the parser's
// scratch strings, not freed and reallocated: SeqBatch::clear() would free a
// few hundred thousand strings per batch, and the allocator's churn (and the
// heap trimming that comes with it) cost more than parsing.
#include "core/seq_batcher.hpp"

#include <algorithm>
#include <utility>

namespace warpdp {
namespace {
constexpr uint64_t kMaxReserve = uint64_t{1} << 30;
}  // namespace

SeqBatcher::SeqBatcher(const std::string& path, const Alphabet& abc, const SeqReaderOptions& opt)
    : path_(path),
      batch_residues_(opt.batch_residues),
      batch_records_(std::max<size_t>(opt.batch_records, 1)),
      block_bytes_(opt.read_block_bytes) {
    const uint64_t max = opt.max_record_residues;
    if (opt.parse_threads <= 1) {
        parser_ = std::make_unique<SeqParser>(path, abc, max, opt.read_block_bytes);
        return;
    }
    // The first read decides: FASTA is cut into blocks for the threads,
    // anything else goes to one parser (which also names what is wrong).
    auto src = std::make_unique<ByteSource>(path);
    std::vector<char> head(SeqParser::read_bytes(*src, opt.read_block_bytes));
    const std::ptrdiff_t got = src->read(head.data(), head.size());
    if (got < 0) {
        parser_ = std::make_unique<SeqParser>(path, abc, max, std::vector<char>{}, 0, src->failure_reason());
        return;
    }
    head.resize(static_cast<size_t>(got));
    if (SeqParser::starts_fasta(head))
        blocks_ = std::make_unique<FastaBlocks>(path, abc, max, opt.read_block_bytes, std::move(src), std::move(head),
                                                opt.parse_block_bytes, opt.parse_threads);
    else
        parser_ = std::make_unique<SeqParser>(path, abc, max, opt.read_block_bytes, std::move(src), std::move(head));
}

bool SeqBatcher::next_record(std::vector<uint8_t>& residues, std::string& name, std::string& desc) {
    if (parser_) return parser_->next(residues, name, desc);
    while (piece_next_ == piece_.size()) {
        if (piece_.error) std::rethrow_exception(std::exchange(piece_.error, nullptr));
        if (!blocks_->next(piece_)) return false;
        piece_next_ = 0;
    }
    const size_t r = piece_next_++;
    const auto* from = piece_.residues.data();
    residues.insert(residues.end(), from + piece_.offsets[r], from + piece_.offsets[r + 1]);
    name.swap(piece_.names[r]);
    desc.swap(piece_.descs[r]);
    return true;
}

bool SeqBatcher::fill(SeqBatch& batch) {
    size_t n = 0;  // records closed so far
    batch.descs.resize(batch.names.size());
    batch.residues.clear();
    batch.offsets.assign(1, 0);
    batch.first_index = next_index_;
    // Swapped in: the scratch string takes the batch's old one, capacity and all.
    const auto close = [&](std::string& name, std::string& desc) {
        if (n < batch.names.size()) {
            batch.names[n].swap(name);
            batch.descs[n].swap(desc);
        } else {
            batch.names.push_back(std::move(name));
            batch.descs.push_back(std::move(desc));
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
            if (!next_record(batch.residues, name_, desc_)) break;
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
