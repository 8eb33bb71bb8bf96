// Amplicon reads as AmpliconNoise's programs read them (a line cut at its
// first letter outside the metric's alphabet, with a warning).
#include "core/nw/nw_reads.hpp"

#include <array>
#include <cstring>

#include "core/base/errors.hpp"
#include "core/io/byte_source.hpp"

namespace warpdp {

void NwReads::add(std::string id, std::string_view seq) {
    if (offsets.empty()) offsets.push_back(0);
    ids.push_back(std::move(id));
    letters.append(seq);
    offsets.push_back(letters.size());
}

namespace {

// fgets(buf, 65536, f) returns at most 65,535 bytes, ending at a newline.
constexpr size_t kPiece = 65535;

class PieceReader {
public:
    explicit PieceReader(const std::string& path) : path_(path), src_(path) {}
    // The next fgets piece (newline included when it fit); false at the end.
    bool next(std::string& piece) {
        piece.clear();
        while (piece.size() < kPiece) {
            if (pos_ == end_ && !refill()) return !piece.empty();
            const size_t want = std::min(end_ - pos_, kPiece - piece.size());
            const char* nl = static_cast<const char*>(std::memchr(buf_.data() + pos_, '\n', want));
            const size_t take = nl ? static_cast<size_t>(nl - (buf_.data() + pos_)) + 1 : want;
            piece.append(buf_.data() + pos_, take);
            pos_ += take;
            if (nl) return true;
        }
        return true;
    }

private:
    bool refill() {
        const auto got = src_.read(buf_.data(), buf_.size());
        if (got < 0) throw InputError(path_, 0, src_.failure_reason());
        pos_ = 0;
        end_ = static_cast<size_t>(got);
        return got > 0;
    }
    std::string path_;
    ByteSource src_;
    std::array<char, 1 << 16> buf_{};
    size_t pos_ = 0, end_ = 0;
};

bool is_trailing_space(const std::string& s, size_t from) {
    for (size_t k = from; k < s.size(); ++k)
        if (s[k] != ' ' && s[k] != '\t' && s[k] != '\r' && s[k] != '\n') return false;
    return true;
}

// Whether a CR in `piece` has more than blanks after it: a file with old Mac
// line ends, which AmpliconNoise would read as one long line.
bool has_inner_cr(const std::string& piece) {
    const size_t cr = piece.find('\r');
    return cr != std::string::npos && !is_trailing_space(piece, cr);
}

}  // namespace

NwReads read_nw_reads(const std::string& path, const NwReadOptions& opt, const NwCutReport& on_cut) {
    std::array<bool, 256> keep{};
    for (char c : nw_alphabet(opt.metric)) keep[static_cast<unsigned char>(c)] = true;

    PieceReader in(path);
    NwReads reads;
    reads.offsets.push_back(0);
    std::string piece, id, seq;
    bool in_record = false, last_complete = true;
    uint64_t line = 0;  // 1-based line of the current piece
    auto finish = [&] {
        if (in_record) reads.add(std::move(id), seq);
        seq.clear();
    };
    while (in.next(piece)) {
        if (last_complete) ++line;
        last_complete = piece.back() == '\n';
        if (has_inner_cr(piece))
            throw InputError(path, line, "carriage return inside a line (old Mac line endings? convert them with "
                                         "tr '\\r' '\\n')");
        if (piece[0] == '>') {
            finish();
            in_record = true;
            const size_t stop = piece.find_first_of(std::string_view(" \n\0", 3), 1);
            id = piece.substr(1, stop == std::string::npos ? std::string::npos : stop - 1);
            continue;
        }
        if (!in_record) throw InputError(path, line, "not FASTA: the input must start with a '>' header line");
        size_t k = 0;
        while (k < piece.size() && keep[static_cast<unsigned char>(piece[k])]) ++k;
        if (seq.size() + k > opt.max_length)
            throw InputError(path, line, "read " + quoted_name(id) + " is longer than " +
                                             std::to_string(opt.max_length) + " letters (--max-read-length)");
        for (size_t c = 0; c < k; ++c) seq.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(piece[c]))));
        if (k < piece.size() && !is_trailing_space(piece, k)) {
            if (opt.strict) {
                const unsigned char bad = static_cast<unsigned char>(piece[k]);
                std::string shown = bad >= 0x20 && bad < 0x7f ? std::string("'") + piece[k] + "'"
                                                               : "byte " + std::to_string(bad);
                throw InputError(path, line, "read " + quoted_name(id) + ": " + shown + " is not a " +
                                                 nw_metric_name(opt.metric) + " letter (allowed: " +
                                                 std::string(nw_alphabet(opt.metric)) +
                                                 "; without --strict the line is cut there, as AmpliconNoise does)");
            }
            if (on_cut) on_cut(line, id, piece[k]);
        }
    }
    finish();
    if (reads.size() == 0) throw InputError(path, 0, "no sequences (empty input)");
    return reads;
}

}  // namespace warpdp
