// gpu-sw's substitution matrices (docs/sw.md §2): the letters of a matrix,
// the small codes every engine indexes it with, the four BLOSUM matrices
// built in, and the reader of NCBI-format matrix files (--matrix FILE).
//
// Codes are a matrix's row order: the letters of its header line, 0 up to
// size() - 1 (at most kSwMaxLetters). Any letter a sequence holds that the
// matrix lacks scores as the matrix's '*' row and column when it has one,
// else as its 'X' (parasail_aligner's rule for its built-in matrices, which
// all have '*'); letters are read without regard to case.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpdp {

// Codes fit 5 bits, so a profile row is 32 entries and a code a byte.
inline constexpr int kSwMaxLetters = 32;
// Matrix entries are whole numbers in [-kSwMaxEntry, kSwMaxEntry], so any
// score of a query against a target of up to 10^7 residues fits int32 and
// a 16-bit lane adds an entry to any non-saturated value without wrapping.
inline constexpr int kSwMaxEntry = 127;

class SwMatrix {
public:
    // The built-in matrices: "BLOSUM45", "BLOSUM50", "BLOSUM62", "BLOSUM80"
    // (any case). Throws UsageError for another name, listing these.
    static const SwMatrix& builtin(std::string_view name);
    static std::vector<std::string> builtin_names();

    // An NCBI-format matrix: '#' comment lines and blank lines anywhere, a
    // header line of single letters (the column order), then one row a
    // letter: the letter, then one whole number a column. Rows may come in
    // any order but each header letter needs exactly one; the matrix need
    // not be symmetric (rows are query letters, columns target letters).
    // Throws InputError naming `source` and the line.
    static SwMatrix parse_ncbi(std::string_view text, const std::string& source, const std::string& name);
    // parse_ncbi of a file (plain or gzip); the name is the file's base name.
    static SwMatrix read_ncbi(const std::string& path);

    const std::string& name() const noexcept { return name_; }
    // The letters in code order (upper case), e.g. "ARNDCQEGHILKMFPSTWYVBZX*".
    const std::string& letters() const noexcept { return letters_; }
    int size() const noexcept { return static_cast<int>(letters_.size()); }

    // Score of query code a against target code b (both < size()).
    int score(int a, int b) const noexcept { return scores_[static_cast<size_t>(a) * kSwMaxLetters + static_cast<size_t>(b)]; }
    // The whole table, row a at a * kSwMaxLetters; entries past size() are 0.
    const std::array<int16_t, kSwMaxLetters * kSwMaxLetters>& table() const noexcept { return scores_; }
    int max_entry() const noexcept { return max_; }
    int min_entry() const noexcept { return min_; }

    // The code of a sequence letter (any byte): its own code, in either case,
    // or unknown_code() for a letter the matrix lacks.
    uint8_t code_of(unsigned char letter) const noexcept { return by_byte_[letter]; }
    // The code that letters outside the matrix's alphabet take: '*' if the
    // matrix has it, else 'X'.
    uint8_t unknown_code() const noexcept { return unknown_; }

private:
    SwMatrix() = default;
    std::string name_, letters_;
    std::array<int16_t, kSwMaxLetters * kSwMaxLetters> scores_{};
    std::array<uint8_t, 256> by_byte_{};
    uint8_t unknown_ = 0;
    int max_ = 0, min_ = 0;
};

}  // namespace warpdp
