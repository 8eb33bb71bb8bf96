// SeqBatcher: batch boundaries exactly as SeqReaderOptions documents them.
// A batch's name and description strings are swapped with the parser's
// scratch strings, not freed and reallocated: SeqBatch::clear() would free a
// few hundred thousand strings per batch, and the allocator's churn (and the
// heap trimming that comes with it) cost more than parsing.
#include "core/io/seq_batcher.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/base/huge_pages.hpp"

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

bool SeqBatcher::fill(SeqBatch& batch) {
    size_t n = 0;  // records closed so far
    batch.descs.resize(batch.names.size());
    batch.residues.clear();
    batch.offsets.assign(1, 0);
    batch.first_index = next_index_;
    // Closes a record whose residues end at `end` in batch.residues; its
    // strings are swapped in (put_strings).
    const auto close = [&](std::string& name, std::string& desc, uint64_t end) {
        put_strings(batch.names, batch.descs, n++, name, desc);
        batch.offsets.push_back(end);
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
    const auto* before = batch.residues.data();
    batch.residues.reserve(std::min<uint64_t>(batch_residues_ + block_bytes_ + 1, kMaxReserve));
    if (batch.residues.data() != before) advise_huge_pages(batch.residues.data(), batch.residues.capacity());
    if (blocks_) {
        // Parsed pieces: the run of records that fits is copied at once, and a
        // record that does not fit simply stays in its piece for the next batch.
        while (n < batch_records_) {
            if (piece_next_ == piece_.size()) {
                if (piece_.error) {  // the input ends there, after the records before it
                    auto e = std::exchange(piece_.error, nullptr);
                    if (n == 0) {
                        (void)finish();
                        std::rethrow_exception(e);
                    }
                    error_ = e;
                    break;
                }
                if (!blocks_->next(piece_)) break;
                piece_next_ = 0;
                continue;
            }
            const auto& off = piece_.offsets;
            const size_t first = piece_next_;
            const uint64_t base = batch.residues.size();
            size_t end = first;
            while (end < piece_.size() && n + (end - first) < batch_records_ &&
                   (n + (end - first) == 0 || base + (off[end + 1] - off[first]) <= batch_residues_))
                ++end;
            if (end == first) break;  // full
            batch.residues.insert(batch.residues.end(), piece_.residues.begin() + static_cast<std::ptrdiff_t>(off[first]),
                                  piece_.residues.begin() + static_cast<std::ptrdiff_t>(off[end]));
            for (size_t r = first; r < end; ++r)
                close(piece_.names[r], piece_.descs[r], base + (off[r + 1] - off[first]));
            piece_next_ = end;
        }
        return finish();
    }
    if (held_) {
        batch.residues.assign(held_residues_.begin(), held_residues_.end());
        close(held_name_, held_desc_, batch.residues.size());
        held_ = false;
    }
    while (n < batch_records_) {
        const size_t before = batch.residues.size();
        try {
            if (!parser_->next(batch.residues, name_, desc_)) break;
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
        close(name_, desc_, batch.residues.size());
    }
    return finish();
}

}  // namespace warpdp
