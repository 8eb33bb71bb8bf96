// FASTA parsed on several threads. A cutter thread reads the byte stream and
// cuts it into blocks of whole records (each cut just before a '>' that opens
// a line), every block is parsed by a SeqParser of its own on a worker
// thread, and the parsed pieces come back in input order, a few blocks ahead
// of the caller. The
// records, the errors and their line numbers are those of one SeqParser
// reading the whole stream: a block is parsed as a whole input (its last
// record ends where the next '>' opens a line, as it would in the stream),
// reads are asked in the parser's request sizes (so a failing read drops the
// same bytes), and error lines are shifted by the newlines of the blocks
// before. The SeqBatcher uses it for FASTA when more than one thread parses.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/io/byte_source.hpp"

namespace warpdp {

// One block's records, back to back as in SeqBatch.
struct FastaPiece {
    std::vector<uint8_t> residues;
    std::vector<uint64_t> offsets{0};
    std::vector<std::string> names, descs;
    uint64_t newlines = 0;     // in the block's text
    uint64_t end_byte = 0;     // stream offset just past the block
    std::exception_ptr error;  // raised after the records above (the input ends there)
    std::vector<char> text;    // the block's text is text[0, text_size) (the buffer is reused)
    size_t text_size = 0;

    size_t size() const noexcept { return names.size(); }
};

class FastaBlocks {
public:
    // `source` has been read as far as `head`, whose first non-blank byte is
    // a '>'; `block_bytes` of text make a block (more when a record is
    // longer), parsed on up to `threads` threads (at most 16).
    FastaBlocks(const std::string& path, const Alphabet& abc, uint64_t max_residues, size_t read_block_bytes,
                std::unique_ptr<ByteSource> source, std::vector<char> head, size_t block_bytes,
                unsigned threads);
    ~FastaBlocks();
    FastaBlocks(const FastaBlocks&) = delete;
    FastaBlocks& operator=(const FastaBlocks&) = delete;

    // The next piece, in input order; false after the last. A piece's error
    // names the line in the whole input.
    [[nodiscard]] bool next(FastaPiece& piece);

    // Stream bytes of the pieces handed out so far.
    uint64_t bytes_consumed() const noexcept { return consumed_; }

private:
    // The cutter thread: cuts blocks and starts their parsing, keeping
    // depth_ of them in flight, until the input is all cut or stop_.
    void cut_loop();
    // Puts the next block (whole records, or the rest of the input) into
    // text[0, size). The buffer only grows, so reading never zero-fills it.
    // False when text[0, size) is one record of oversize_ bytes and more.
    bool cut_block(std::vector<char>& text, size_t& size);
    // After such a record (its text in piece.text, from stream offset
    // `start`), the rest of the input goes through one SeqParser on the
    // cutter thread, a piece per block_bytes_ residues, so that memory stays
    // that of one parser instead of a block holding a whole genome's text.
    void read_rest_serially(FastaPiece piece, uint64_t start);
    // Waits for room in flight, then gives `piece` a spare's buffers; false on stop_.
    bool take_room(FastaPiece& piece);
    void put(std::future<FastaPiece> job);

    std::string path_;
    const Alphabet& abc_;
    uint64_t max_residues_;
    size_t depth_;              // blocks in flight

    // The cutter thread's own.
    std::unique_ptr<ByteSource> src_;
    size_t request_;            // bytes asked of src_ at a time (SeqParser's)
    size_t block_bytes_;
    size_t oversize_;           // a block this long without a cut: read the rest serially
    std::vector<char> carry_;   // text read past the last cut
    bool src_done_ = false;     // the end of the input, or a failed read, was met
    bool all_cut_ = false;      // the last block is in flight
    std::string failure_;       // why reading failed ("" = it did not)
    uint64_t read_ = 0;         // stream bytes read so far
    uint64_t cut_ = 0;          // stream offset of carry_[0]

    // The caller's own.
    bool ended_ = false;        // the last piece (or one with an error) was handed out
    uint64_t lines_before_ = 0; // newlines of the pieces handed out
    uint64_t consumed_ = 0;

    // Shared, under mutex_.
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::future<FastaPiece>> inflight_;
    std::vector<FastaPiece> spare_;  // handed back by the caller, for the next blocks
    bool stop_ = false;              // the owner is going away
    bool cutter_done_ = false;       // nothing more will be put in flight
    std::thread cutter_;             // last: started once every member it uses exists
};

}  // namespace warpdp
