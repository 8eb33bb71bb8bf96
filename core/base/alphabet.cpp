// The three alphabet tables. Degenerate sets follow Easel's esl_alphabet.c
// (amino: B={D,N}, J={I,L}, Z={E,Q}, O={K}, U={C}, X=all; nucleic: IUPAC).
#include "core/base/alphabet.hpp"

#include <cctype>

namespace warpdp {

Alphabet::Alphabet(AlphabetKind kind, std::string_view name, std::string_view symbols, int K)
    : kind_(kind), name_(name), symbols_(symbols), K_(K), Kp_(static_cast<int>(symbols.size())) {
    inmap_.fill(kIllegal);
    // Easel's FASTA reader skips these three in sequence lines and refuses
    // the other blanks (vertical tab, form feed) as it refuses any other byte.
    for (unsigned char c : std::string_view(" \t\r")) inmap_[c] = kIgnored;
    for (int code = 0; code < Kp_; ++code) {
        const auto c = static_cast<unsigned char>(symbols_[static_cast<size_t>(code)]);
        if (c == '-') continue;  // hmmsearch's FASTA reader rejects '-' itself
        inmap_[c] = static_cast<int8_t>(code);
        inmap_[static_cast<unsigned char>(std::tolower(c))] = static_cast<int8_t>(code);
    }
    inmap_['.'] = static_cast<int8_t>(K_);
    inmap_['_'] = static_cast<int8_t>(K_);
    for (int y = 0; y < K_; ++y) degen_[static_cast<size_t>(y)] = 1u << y;
}

void Alphabet::set_degenerate(char sym, std::string_view members) {
    const auto code = static_cast<size_t>(symbols_.find(sym));
    uint32_t bits = 0;
    for (char m : members) bits |= 1u << symbols_.find(m);
    degen_[code] = bits;
}

const Alphabet& Alphabet::amino() {
    static const Alphabet a = [] {
        Alphabet x(AlphabetKind::amino, "amino", "ACDEFGHIKLMNPQRSTVWY-BJZOUX*~", 20);
        x.set_degenerate('B', "DN");
        x.set_degenerate('J', "IL");
        x.set_degenerate('Z', "EQ");
        x.set_degenerate('O', "K");
        x.set_degenerate('U', "C");
        x.set_degenerate('X', "ACDEFGHIKLMNPQRSTVWY");
        return x;
    }();
    return a;
}

const Alphabet& Alphabet::dna() {
    static const Alphabet a = [] {
        Alphabet x(AlphabetKind::dna, "DNA", "ACGT-RYMKSWHBVDN*~", 4);
        x.set_nucleic_degeneracies();
        x.inmap_['U'] = x.inmap_['u'] = 3;  // U read as T, as Easel does
        return x;
    }();
    return a;
}

const Alphabet& Alphabet::rna() {
    static const Alphabet a = [] {
        Alphabet x(AlphabetKind::rna, "RNA", "ACGU-RYMKSWHBVDN*~", 4);
        x.set_nucleic_degeneracies();
        x.inmap_['T'] = x.inmap_['t'] = 3;  // T read as U
        return x;
    }();
    return a;
}

const Alphabet& Alphabet::rna_acgu() {
    static const Alphabet a = [] {
        Alphabet x = rna();
        for (auto& code : x.inmap_)
            if (code >= x.K_) code = kIllegal;
        return x;
    }();
    return a;
}

const Alphabet& Alphabet::of(AlphabetKind kind) {
    switch (kind) {
        case AlphabetKind::amino: return amino();
        case AlphabetKind::dna: return dna();
        case AlphabetKind::rna: return rna();
    }
    return amino();
}

void Alphabet::set_nucleic_degeneracies() {
    const char t = symbols_[3];  // T or U
    const std::string T(1, t);
    set_degenerate('R', "AG");
    set_degenerate('Y', "C" + T);
    set_degenerate('M', "AC");
    set_degenerate('K', "G" + T);
    set_degenerate('S', "CG");
    set_degenerate('W', "A" + T);
    set_degenerate('H', "AC" + T);
    set_degenerate('B', "CG" + T);
    set_degenerate('V', "ACG");
    set_degenerate('D', "AG" + T);
    set_degenerate('N', "ACG" + T);
}

}  // namespace warpdp
