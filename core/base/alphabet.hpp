// Biological alphabets: one table per alphabet, digitising text the way
// Easel (HMMER's library) does. Amino codes 0..28 are
//   ACDEFGHIKLMNPQRSTVWY  -  B J Z O U X  *  ~
// (20 canonical residues, gap, six degenerate codes, non-residue, missing).
// DNA/RNA codes are ACGT (ACGU) then gap, the IUPAC degeneracies, *, ~.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace warpdp {

enum class AlphabetKind { amino, dna, rna };

class Alphabet {
public:
    // What one input byte becomes when a sequence file is read.
    static constexpr int8_t kIgnored = -1;  // space, tab and CR: skipped
    static constexpr int8_t kIllegal = -2;  // anything else not in the alphabet

    static const Alphabet& amino();
    static const Alphabet& dna();
    static const Alphabet& rna();
    // RNA with only A, C, G, U and T (read as U) legal, any case: every
    // other byte the RNA alphabet accepts is illegal here (gpu-nussinov --strict).
    static const Alphabet& rna_acgu();
    static const Alphabet& of(AlphabetKind kind);

    AlphabetKind kind() const noexcept { return kind_; }
    std::string_view name() const noexcept { return name_; }
    int K() const noexcept { return K_; }    // canonical residues (20 or 4)
    int Kp() const noexcept { return Kp_; }  // all codes (29 or 18)
    int gap_code() const noexcept { return K_; }
    int any_code() const noexcept { return Kp_ - 3; }      // X or N
    int nonresidue_code() const noexcept { return Kp_ - 2; }  // *
    int missing_code() const noexcept { return Kp_ - 1; }     // ~
    char symbol(int code) const noexcept { return symbols_[static_cast<size_t>(code)]; }

    // Code for a byte of a sequence file (FASTA/FASTQ), following hmmsearch:
    // case-insensitive, '.' and '_' are gaps, '-' itself is illegal, space, tab and CR ignored.
    int8_t digitize(unsigned char c) const noexcept { return inmap_[c]; }

    // True for codes that are canonical or degenerate residues (not gap, *, ~).
    bool is_residue(int code) const noexcept { return code < K_ || (code > K_ && code < Kp_ - 2); }

    // For a degenerate code, whether canonical residue y is one of its members.
    bool degenerate_has(int code, int y) const noexcept { return (degen_[static_cast<size_t>(code)] >> y) & 1u; }

private:
    Alphabet(AlphabetKind kind, std::string_view name, std::string_view symbols, int K);
    void set_degenerate(char sym, std::string_view members);
    void set_nucleic_degeneracies();

    AlphabetKind kind_;
    std::string name_;
    std::string symbols_;
    int K_;
    int Kp_;
    std::array<int8_t, 256> inmap_{};
    std::array<uint32_t, 32> degen_{};  // bit y set: canonical y is a member
};

}  // namespace warpdp
