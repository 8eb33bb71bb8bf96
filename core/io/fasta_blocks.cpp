// FastaBlocks: one thread reads and cuts (reads are sequential anyway), each
// block is parsed on a std::async thread of its own, and the caller only
// takes finished pieces in order. Pieces and their text buffers are recycled,
// so that after the first few blocks neither reading nor parsing touches
// fresh pages.
#include "core/io/fasta_blocks.hpp"

#include <string.h>  // memrchr

#include <algorithm>
#include <utility>

#include "core/base/errors.hpp"
#include "core/io/seq_batch.hpp"
#include "core/io/seq_parser.hpp"

namespace warpdp {
namespace {

constexpr size_t kNoCut = static_cast<size_t>(-1);
// Blocks parsed at once, whatever the thread count: the caller's copying of
// records into batches, on one thread, bounds the reader well before 16
// parsers (docs/benchmarks.md, the reader), and each block in flight holds
// ~10 MB.
constexpr unsigned kMaxParsers = 16;

// The last '>' that opens a line in text[from, end), from >= 1; kNoCut if none.
size_t last_cut(const std::vector<char>& text, size_t from, size_t end) {
    while (end > from) {
        const void* q = memrchr(text.data() + from, '>', end - from);
        if (q == nullptr) return kNoCut;
        const size_t p = static_cast<size_t>(static_cast<const char*>(q) - text.data());
        if (text[p - 1] == '\n') return p;
        end = p;
    }
    return kNoCut;
}

// Moves records from `parser` into `piece` until the input ends, an error
// (kept in piece.error), or `residues` residues are in; returns the newlines
// the parser went past. The piece's strings from its last use are reused
// (put_strings).
uint64_t take_records(SeqParser& parser, FastaPiece& piece, size_t residues) {
    const uint64_t line0 = parser.line();
    std::string name, desc;
    size_t n = 0;
    try {
        while (piece.residues.size() < residues && parser.next(piece.residues, name, desc)) {
            piece.offsets.push_back(piece.residues.size());
            put_strings(piece.names, piece.descs, n++, name, desc);
        }
    } catch (...) {
        piece.residues.resize(piece.offsets.back());
        piece.error = std::current_exception();
    }
    piece.names.resize(n);
    piece.descs.resize(n);
    return piece.error ? 0 : parser.line() - line0;
}

// Parses piece.text as a whole input into the piece; `failure` is why the
// input ended there, if it did not simply end.
FastaPiece parse_block(const std::string& path, const Alphabet& abc, uint64_t max_residues, FastaPiece piece,
                       std::string failure) {
    piece.residues.reserve(piece.text_size);
    const size_t size = piece.text_size;
    SeqParser parser(path, abc, max_residues, std::move(piece.text), size, std::move(failure));
    const uint64_t lines = take_records(parser, piece, static_cast<size_t>(-1));
    if (!piece.error) piece.newlines = lines;
    piece.text = parser.release_text();
    return piece;
}

// A piece made on the cutter thread, as a future like the parsed ones.
std::future<FastaPiece> ready(FastaPiece piece) {
    std::promise<FastaPiece> p;
    p.set_value(std::move(piece));
    return p.get_future();
}

// `e` with an InputError's line moved by `lines`.
std::exception_ptr shifted(const std::exception_ptr& e, int64_t lines) {
    try {
        std::rethrow_exception(e);
    } catch (const InputError& ie) {
        const uint64_t line = ie.line() > 0 ? static_cast<uint64_t>(static_cast<int64_t>(ie.line()) + lines) : 0;
        return std::make_exception_ptr(InputError(ie.file(), line, ie.message()));
    } catch (...) {
        return e;
    }
}

}  // namespace

FastaBlocks::FastaBlocks(const std::string& path, const Alphabet& abc, uint64_t max_residues,
                         size_t read_block_bytes, std::unique_ptr<ByteSource> source, std::vector<char> head,
                         size_t block_bytes, unsigned threads)
    : path_(path),
      abc_(abc),
      max_residues_(max_residues),
      depth_(std::clamp(threads, 1u, kMaxParsers) + 1),
      src_(std::move(source)),
      request_(SeqParser::read_bytes(*src_, read_block_bytes)),
      block_bytes_(std::max<size_t>(block_bytes, 1)),
      oversize_(std::max<size_t>(16 * block_bytes_, 4096)),
      carry_(std::move(head)),
      read_(carry_.size()) {
    if (!SeqParser::starts_fasta(carry_)) throw InternalError("FastaBlocks: the input does not start as FASTA");
    cutter_ = std::thread([this] { cut_loop(); });
}

FastaBlocks::~FastaBlocks() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    if (cutter_.joinable()) cutter_.join();
}  // then the futures wait for their blocks

bool FastaBlocks::next(FastaPiece& piece) {
    if (ended_) return false;
    std::future<FastaPiece> job;
    {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return !inflight_.empty() || cutter_done_; });
        if (inflight_.empty()) {
            ended_ = true;
            return false;
        }
        job = std::move(inflight_.front());
        inflight_.pop_front();
    }
    changed_.notify_all();  // room for one more block
    FastaPiece done = job.get();
    std::swap(piece, done);
    {
        std::lock_guard lock(mutex_);
        if (spare_.size() < 2) spare_.push_back(std::move(done));  // the caller's last piece, for reuse
    }
    if (piece.error) {
        piece.error = shifted(piece.error, static_cast<int64_t>(lines_before_));
        ended_ = true;  // the input ends at its first error
    }
    lines_before_ += piece.newlines;
    consumed_ = piece.end_byte;
    return true;
}

bool FastaBlocks::take_room(FastaPiece& piece) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return stop_ || inflight_.size() < depth_; });
    if (stop_) return false;
    piece = FastaPiece{};
    if (!spare_.empty()) {
        piece = std::move(spare_.back());
        spare_.pop_back();
    }
    piece.residues.clear();
    piece.offsets.assign(1, 0);
    piece.newlines = 0;
    piece.error = nullptr;
    return true;
}

void FastaBlocks::put(std::future<FastaPiece> job) {
    {
        std::lock_guard lock(mutex_);
        inflight_.push_back(std::move(job));
    }
    changed_.notify_all();
}

void FastaBlocks::cut_loop() {
    try {
        FastaPiece piece;
        while (!all_cut_ && take_room(piece)) {
            const uint64_t start = cut_;
            if (!cut_block(piece.text, piece.text_size)) {
                read_rest_serially(std::move(piece), start);
                break;
            }
            piece.end_byte = cut_;
            put(std::async(std::launch::async, parse_block, path_, std::cref(abc_), max_residues_, std::move(piece),
                           all_cut_ ? failure_ : std::string()));
        }
    } catch (...) {
        // Out of memory or threads: the caller meets it after the pieces before it.
        FastaPiece failed;
        failed.error = std::current_exception();
        put(ready(std::move(failed)));
    }
    {
        std::lock_guard lock(mutex_);
        cutter_done_ = true;
    }
    changed_.notify_all();
}

void FastaBlocks::read_rest_serially(FastaPiece piece, uint64_t start) {
    std::vector<char> head(piece.text.begin(), piece.text.begin() + static_cast<std::ptrdiff_t>(piece.text_size));
    SeqParser tail(path_, abc_, max_residues_, request_, std::move(src_), std::move(head));
    // Lines of the tail's pieces count from the first (the caller adds the
    // lines of the pieces before); an error's line is the tail's own.
    uint64_t lines = 0;
    do {
        const uint64_t n = take_records(tail, piece, block_bytes_);
        piece.newlines = n;
        if (piece.error) piece.error = shifted(piece.error, -static_cast<int64_t>(lines));
        lines += n;
        piece.end_byte = start + tail.bytes_consumed();
        const bool more = !piece.error && piece.residues.size() >= block_bytes_;
        put(ready(std::move(piece)));
        if (!more) return;
    } while (take_room(piece));
}

bool FastaBlocks::cut_block(std::vector<char>& text, size_t& size) {
    if (text.size() < carry_.size()) text.resize(carry_.size());
    std::copy(carry_.begin(), carry_.end(), text.begin());
    size = carry_.size();
    carry_.clear();
    size_t searched = 1;  // no cut before this (a cut at 0 would make an empty block)
    for (;;) {
        if (src_done_) {
            cut_ = read_;
            all_cut_ = true;
            return true;
        }
        if (size >= block_bytes_) {
            const size_t p = last_cut(text, searched, size);
            if (p != kNoCut) {
                carry_.assign(text.begin() + static_cast<std::ptrdiff_t>(p),
                              text.begin() + static_cast<std::ptrdiff_t>(size));
                size = p;
                cut_ = read_ - carry_.size();
                return true;
            }
            searched = std::max<size_t>(size, 1);
            if (size >= oversize_) return false;  // one record, and a long one
        }
        if (text.size() < size + request_) text.resize(std::max(size + request_, text.size() + text.size() / 2));
        const std::ptrdiff_t got = src_->read(text.data() + size, request_);
        if (got < 0) {
            failure_ = src_->failure_reason();
            src_done_ = true;
        } else {
            size += static_cast<size_t>(got);
            read_ += static_cast<uint64_t>(got);
            src_done_ = got == 0;
        }
    }
}

}  // namespace warpdp
