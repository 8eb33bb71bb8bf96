// One record at a time from a FASTA or FASTQ file, digitised as hmmsearch reads
// targets (docs/hmmer-filters.md §2.2). The reader reads big blocks and
// digitises runs of sequence lines in one pass, so line numbers are counted
// lazily, only up to the positions that need one.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/io/byte_source.hpp"
#include "core/io/letter_digitizer.hpp"

namespace warpdp {

class SeqParser {
public:
    // Opens the file (InputError when it cannot be opened). Records longer
    // than max_residues are an InputError. Input is read block_bytes at a time.
    SeqParser(const std::string& path, const Alphabet& abc, uint64_t max_residues,
              size_t block_bytes);
    // Goes on with `source`, of which `head` (one read_bytes() request) was
    // already read: the same records and errors as reading it from the start.
    SeqParser(const std::string& path, const Alphabet& abc, uint64_t max_residues, size_t block_bytes,
              std::unique_ptr<ByteSource> source, std::vector<char> head);
    // Parses text[0, size), lines numbered from 1, as if it were the whole
    // input, or, when `failure` is not empty, as the input read before
    // reading failed for that reason (the error a stream parser would raise).
    SeqParser(const std::string& path, const Alphabet& abc, uint64_t max_residues, std::vector<char> text,
              size_t size, std::string failure);

    // Appends the next record's residues to `residues` and sets its name and
    // description. Returns false at the end of the input. Throws InputError
    // naming the file and the 1-based line of the (decompressed) input.
    [[nodiscard]] bool next(std::vector<uint8_t>& residues, std::string& name, std::string& desc);

    const std::string& path() const noexcept { return path_; }
    // Decompressed bytes consumed so far.
    uint64_t bytes_consumed() const noexcept { return discarded_ + pos_; }
    // 1-based line of the next unread byte.
    uint64_t line() { return line_at(pos_); }

    // Hands back the text buffer (for reuse); the parser is done with it.
    std::vector<char> release_text() { return std::move(buf_); }

    // How many bytes a parser asks of `source` at a time, for reads of
    // block_bytes: readers that share a stream with a parser ask the same.
    static size_t read_bytes(const ByteSource& source, size_t block_bytes);
    // Whether the first byte of `head` that is not white space is a '>'.
    static bool starts_fasta(const std::vector<char>& head);

private:
    enum class Format { unknown, fasta, fastq, none };
    static constexpr size_t kWholeBuffer = static_cast<size_t>(-1);

    // What the public constructors share: bytes buf[0, end) are unread
    // (kWholeBuffer: all of buf), the rest comes from `source` if any.
    SeqParser(const std::string& path, const Alphabet& abc, uint64_t max_residues,
              std::unique_ptr<ByteSource> source, std::vector<char> buf, size_t end, std::string failure);

    bool next_fasta(std::vector<uint8_t>& residues, std::string& name, std::string& desc);
    bool next_fastq(std::vector<uint8_t>& residues, std::string& name, std::string& desc);
    void detect_format();

    // Buffer: bytes [pos_, end_) are unread. refill() is called only once
    // they are all consumed: it drops them and reads the next block; false
    // at the end of the input.
    bool refill();
    bool at_end() { return pos_ == end_ && !refill(); }
    // 1-based line of buffer position p; cheap when p moves forwards.
    uint64_t line_at(size_t p);

    // Reads the rest of the current line into `out` (newline dropped);
    // false when the input ended before any byte of the line.
    bool read_line(std::string& out);
    // Digitises the rest of the current line into residues.
    void digitize_line(std::vector<uint8_t>& residues, size_t first, const std::string& name);
    // Header after the '>' or '@': first token = name, the rest trimmed = description.
    void split_header(const std::string& line, uint64_t line_no, std::string& name, std::string& desc);
    // Digitises buf_[from, to) onto residues, whose current record began at
    // index `first`; raises the error for an illegal byte or an overlong record.
    void digitize_run(size_t from, size_t to, std::vector<uint8_t>& residues, size_t first,
                      const std::string& name);
    [[noreturn]] void fail(uint64_t line, const std::string& message) const;

    std::string path_;
    std::unique_ptr<ByteSource> src_;  // null: the input is the text in buf_
    std::string failure_;              // without src_: why reading stopped ("" = the end)
    uint64_t max_residues_;
    std::array<int8_t, 256> map_{};  // the alphabet's map with '\n' ignored too
    LetterDigitizer letters_;
    Format format_ = Format::unknown;

    std::vector<char> buf_;
    size_t pos_ = 0;
    size_t end_ = 0;
    bool eof_ = false;
    uint64_t discarded_ = 0;   // bytes dropped from the front of buf_ so far
    size_t mark_pos_ = 0;      // line_at() has counted newlines up to here
    uint64_t mark_lines_ = 0;  // newlines before mark_pos_
    std::string header_;       // scratch, reused
};

// "'c'" for a printable byte, "'\xNN'" otherwise: how errors quote input bytes.
std::string quote_byte(unsigned char c);

}  // namespace warpdp
