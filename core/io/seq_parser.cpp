// SeqParser: FASTA/FASTQ on top of ByteSource. FASTA sequence lines are not
// split into lines at all: everything up to the next '>' in the buffer is
// one run for LetterDigitizer (newline, blanks and CR map to "ignored"),
// and a '>' that does not open a line is an illegal character. Newlines
// are counted in passing by the digitiser, elsewhere only where a line
// number may be needed; line_at() moves a mark forwards so that no byte is
// counted twice.
#include "core/io/seq_parser.hpp"


#include <algorithm>
#include <cstdio>
#include <cstring>

#include "core/base/errors.hpp"

namespace warpdp {
namespace {

// Longest header or '+' line we hold in memory; longer ones are not FASTA/FASTQ.
constexpr size_t kMaxHeaderBytes = size_t{16} << 20;
constexpr size_t kCompressedRead = size_t{64} << 10;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool is_space(char c) { return is_blank(c) || c == '\n'; }


// The alphabet's map with '\n' ignored too, so runs of lines digitise in one loop.
std::array<int8_t, 256> reading_map(const Alphabet& abc) {
    std::array<int8_t, 256> map{};
    for (int c = 0; c < 256; ++c) map[static_cast<size_t>(c)] = abc.digitize(static_cast<unsigned char>(c));
    map['\n'] = Alphabet::kIgnored;
    return map;
}

}  // namespace

std::string quote_byte(unsigned char c) {
    if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
    char hex[8];
    std::snprintf(hex, sizeof hex, "'\\x%02X'", static_cast<unsigned>(c));
    return hex;
}

SeqParser::SeqParser(const std::string& path, const Alphabet& abc, uint64_t max_residues,
                     std::unique_ptr<ByteSource> source, std::vector<char> buf, size_t end, std::string failure)
    : path_(path),
      src_(std::move(source)),
      failure_(std::move(failure)),
      max_residues_(max_residues),
      map_(reading_map(abc)),
      letters_(map_),
      buf_(std::move(buf)) {
    if (end == kWholeBuffer) end = buf_.size();
    if (end > buf_.size()) throw InternalError("SeqParser: text size past its buffer");
    end_ = end;
}

SeqParser::SeqParser(const std::string& path, const Alphabet& abc, uint64_t max_residues,
                     size_t block_bytes)
    : SeqParser(path, abc, max_residues, std::make_unique<ByteSource>(path),
                std::vector<char>(std::max<size_t>(block_bytes, 1)), 0, {}) {}

SeqParser::SeqParser(const std::string& path, const Alphabet& abc, uint64_t max_residues, size_t block_bytes,
                     std::unique_ptr<ByteSource> source, std::vector<char> head)
    : SeqParser(path, abc, max_residues, std::move(source), std::move(head), kWholeBuffer, {}) {
    eof_ = end_ == 0;  // the head read is the first request: empty only at the end
    buf_.resize(std::max<size_t>({buf_.size(), block_bytes, 1}));
}

SeqParser::SeqParser(const std::string& path, const Alphabet& abc, uint64_t max_residues, std::vector<char> text,
                     size_t size, std::string failure)
    : SeqParser(path, abc, max_residues, nullptr, std::move(text), size, std::move(failure)) {}

bool SeqParser::starts_fasta(const std::vector<char>& head) {
    const auto first = std::find_if(head.begin(), head.end(), [](char c) { return !is_space(c); });
    return first != head.end() && *first == '>';
}

size_t SeqParser::read_bytes(const ByteSource& source, size_t block_bytes) {
    block_bytes = std::max<size_t>(block_bytes, 1);
    return source.compressed() ? std::min(block_bytes, kCompressedRead) : block_bytes;
}

void SeqParser::fail(uint64_t line, const std::string& message) const {
    throw InputError(path_, line, message);
}

bool SeqParser::refill() {
    if (pos_ != end_) throw InternalError("SeqParser::refill() with unread bytes");
    if (eof_) return false;
    line_at(end_);
    discarded_ += end_;
    pos_ = end_ = mark_pos_ = 0;
    if (!src_) {
        eof_ = true;
        if (!failure_.empty()) fail(line_at(0), failure_);
        return false;
    }
    // htslib drops the whole request when decompression fails in it, so
    // compressed input is asked for in pieces the size of a BGZF block:
    // the error's line is then at most that far before the damage.
    const std::ptrdiff_t got = src_->read(buf_.data(), read_bytes(*src_, buf_.size()));
    if (got < 0) fail(line_at(0), src_->failure_reason());
    if (got == 0) {
        eof_ = true;
        return false;
    }
    end_ = static_cast<size_t>(got);
    return true;
}

uint64_t SeqParser::line_at(size_t p) {
    const char* b = buf_.data();
    if (p < mark_pos_) return mark_lines_ + 1 - static_cast<uint64_t>(std::count(b + p, b + mark_pos_, '\n'));
    mark_lines_ += static_cast<uint64_t>(std::count(b + mark_pos_, b + p, '\n'));
    mark_pos_ = p;
    return mark_lines_ + 1;
}

bool SeqParser::read_line(std::string& out) {
    out.clear();
    bool any = false;
    for (;;) {
        if (pos_ == end_ && !refill()) return any;
        any = true;
        const char* b = buf_.data() + pos_;
        const auto* nl = static_cast<const char*>(std::memchr(b, '\n', end_ - pos_));
        const size_t n = nl != nullptr ? static_cast<size_t>(nl - b) : end_ - pos_;
        if (out.size() + n > kMaxHeaderBytes) fail(line_at(pos_), "line longer than 16 MiB");
        out.append(b, n);
        pos_ += n;
        if (nl != nullptr) {
            ++pos_;
            return true;
        }
    }
}

void SeqParser::split_header(const std::string& line, uint64_t line_no, std::string& name,
                             std::string& desc) {
    // As Easel reads a FASTA header (hmmsearch prints the description as it
    // got it, and re-reads ours from the survivors file): spaces and tabs
    // before the name and before the description are skipped; the name ends
    // at any white space; the description runs to the end of the line, its
    // trailing blanks kept, but stops at a CR or at a ctrl-A (NCBI nr joins
    // headers with it).
    const size_t n = line.size();
    const auto space_or_tab = [](char c) { return c == ' ' || c == '\t'; };
    size_t i = 0;
    while (i < n && space_or_tab(line[i])) ++i;
    size_t j = i;
    while (j < n && !is_blank(line[j])) ++j;
    if (j == i) fail(line_no, "sequence has no name");
    name.assign(line, i, j - i);
    while (j < n && space_or_tab(line[j])) ++j;
    size_t k = j;
    while (k < n && line[k] != '\r' && line[k] != '\x01') ++k;
    desc.assign(line, j, k - j);
    // Easel would read what follows a CR as residues (old Mac line ends);
    // this reader would lose it: refuse rather than read something else.
    if (k < n && line[k] == '\r' && line.find_first_not_of('\r', k) != std::string::npos)
        fail(line_no, "carriage return inside a header line (old Mac line endings? convert them with tr '\\r' '\\n')");
}

void SeqParser::digitize_run(size_t from, size_t to, std::vector<uint8_t>& residues, size_t first,
                             const std::string& name) {
    const size_t old = residues.size();
    residues.resize(old + (to - from));
    uint8_t* out = residues.data() + old;
    const auto* p = reinterpret_cast<const unsigned char*>(buf_.data());
    const int8_t* map = map_.data();
    line_at(from);  // newlines are counted here, in passing, instead of by line_at()
    const auto r = letters_.run(p + from, to - from, out);
    const uint64_t newlines = r.newlines;
    const bool bad = r.illegal;
    out += r.codes;
    residues.resize(static_cast<size_t>(out - residues.data()));
    // The first error in the text wins, wherever the reads happened to end:
    // an illegal byte, or the first residue past the length limit.
    const auto too_long = [&](size_t at) {
        fail(line_at(at), "sequence " + quoted_name(name) + " is longer than " + std::to_string(max_residues_) +
                              " residues");
    };
    if (bad) {
        size_t i = from;
        while (map[p[i]] != Alphabet::kIllegal) ++i;
        uint64_t length = old - first;
        for (size_t j = from; j < i; ++j)
            if (map[p[j]] >= 0 && ++length > max_residues_) too_long(j);
        fail(line_at(i), "illegal character " + quote_byte(p[i]) + " in sequence " + quoted_name(name));
    }
    const uint64_t length = residues.size() - first;
    if (length > max_residues_) {
        uint64_t excess = length - max_residues_;
        size_t i = to;
        while (excess > 0) excess -= map[p[--i]] >= 0;
        too_long(i);
    }
    mark_pos_ = to;
    mark_lines_ += newlines;
}

void SeqParser::detect_format() {
    for (;;) {
        if (at_end()) {
            format_ = Format::none;  // empty or blank input: zero records
            return;
        }
        const char c = buf_[pos_];
        if (is_space(c)) {
            ++pos_;
            continue;
        }
        if (c == '>') format_ = Format::fasta;
        else if (c == '@') format_ = Format::fastq;
        if (format_ != Format::unknown) return;
        const uint64_t line = line_at(pos_);
        const bool first_byte = discarded_ + pos_ == 0;
        ++pos_;
        // gzip's first magic byte alone (ByteSource takes two for gzip): a
        // gzip file cut after one byte. Alone in the whole input, not only in
        // this read, which may end after any byte (found by fuzz_seq_reader).
        if (static_cast<unsigned char>(c) == 0x1f && first_byte && at_end())
            fail(line, "truncated gzip file (it ends within its first bytes)");
        fail(line, "not FASTA or FASTQ: expected '>' or '@' at the start of the data, found " +
                       quote_byte(static_cast<unsigned char>(c)));
    }
}

bool SeqParser::next(std::vector<uint8_t>& residues, std::string& name, std::string& desc) {
    if (format_ == Format::unknown) detect_format();
    switch (format_) {
        case Format::fasta: return next_fasta(residues, name, desc);
        case Format::fastq: return next_fastq(residues, name, desc);
        default: return false;
    }
}

bool SeqParser::next_fasta(std::vector<uint8_t>& residues, std::string& name, std::string& desc) {
    if (at_end()) return false;
    // Invariant: pos_ is on a '>' that opens a line.
    const uint64_t header_line = line_at(pos_);
    ++pos_;
    (void)read_line(header_);
    split_header(header_, header_line, name, desc);

    const size_t start = residues.size();
    bool line_start = true;
    for (;;) {
        if (pos_ == end_ && !refill()) break;
        if (line_start && buf_[pos_] == '>') break;
        const char* b = buf_.data();
        const auto* gt = static_cast<const char*>(std::memchr(b + pos_, '>', end_ - pos_));
        const size_t stop = gt != nullptr ? static_cast<size_t>(gt - b) : end_;
        if (stop > pos_) {
            digitize_run(pos_, stop, residues, start, name);
            line_start = b[stop - 1] == '\n';
            pos_ = stop;
        }
        if (pos_ < end_ && !line_start)
            fail(line_at(pos_), "illegal character '>' in sequence " + quoted_name(name));
    }
    return true;
}

void SeqParser::digitize_line(std::vector<uint8_t>& residues, size_t first, const std::string& name) {
    for (;;) {
        if (pos_ == end_ && !refill()) return;
        const char* b = buf_.data();
        const auto* nl = static_cast<const char*>(std::memchr(b + pos_, '\n', end_ - pos_));
        const size_t stop = nl != nullptr ? static_cast<size_t>(nl - b) : end_;
        digitize_run(pos_, stop, residues, first, name);
        pos_ = stop;
        if (nl != nullptr) {
            ++pos_;
            return;
        }
    }
}

bool SeqParser::next_fastq(std::vector<uint8_t>& residues, std::string& name, std::string& desc) {
    for (;;) {  // blank lines between records are tolerated
        if (at_end()) return false;
        if (!is_space(buf_[pos_])) break;
        ++pos_;
    }
    const uint64_t header_line = line_at(pos_);
    if (buf_[pos_] != '@')
        fail(header_line, "expected '@' at the start of a FASTQ record, found " +
                              quote_byte(static_cast<unsigned char>(buf_[pos_])));
    ++pos_;
    (void)read_line(header_);
    split_header(header_, header_line, name, desc);

    const size_t start = residues.size();
    if (at_end()) fail(line_at(pos_), "truncated FASTQ record " + quoted_name(name) + ": no sequence line");
    digitize_line(residues, start, name);
    const uint64_t length = residues.size() - start;

    if (at_end()) fail(line_at(pos_), "truncated FASTQ record " + quoted_name(name) + ": no '+' line");
    if (buf_[pos_] != '+')
        fail(line_at(pos_), "expected '+' line in FASTQ record " + quoted_name(name) + ", found " +
                                quote_byte(static_cast<unsigned char>(buf_[pos_])));
    (void)read_line(header_);

    // Quality: only its length matters (one symbol per residue, trailing CR dropped).
    const uint64_t quality_line = line_at(pos_);
    uint64_t qlen = 0;
    bool any = false;
    char last = '\0';
    for (;;) {
        if (pos_ == end_ && !refill()) break;
        any = true;
        const char* b = buf_.data() + pos_;
        const auto* nl = static_cast<const char*>(std::memchr(b, '\n', end_ - pos_));
        const size_t n = nl != nullptr ? static_cast<size_t>(nl - b) : end_ - pos_;
        qlen += n;
        if (n > 0) last = b[n - 1];
        pos_ += n;
        if (nl != nullptr) {
            ++pos_;
            break;
        }
    }
    if (last == '\r') --qlen;
    if (!any && length > 0)
        fail(quality_line, "truncated FASTQ record " + quoted_name(name) + ": no quality line");
    if (qlen != length)
        fail(quality_line, "quality line of FASTQ record " + quoted_name(name) + " has " +
                               std::to_string(qlen) + " symbols for " + std::to_string(length) +
                               " residues");
    return true;
}

}  // namespace warpdp
