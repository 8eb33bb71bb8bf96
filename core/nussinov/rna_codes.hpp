// Bases as the Nussinov engines see them (docs/nussinov.md §1): the codes of
// the project's RNA alphabet (core/base/alphabet) turned into the engine
// codes of nussinov_engine.hpp, A C G U -> 0..3 and every other residue ->
// kRnaOther, with a count of the latter for the tool's warning.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/nussinov/nussinov_engine.hpp"

namespace warpdp {

// One code of Alphabet::rna() (or rna_acgu()) as an engine code.
inline uint8_t rna_engine_code(uint8_t alphabet_code) noexcept {
    return alphabet_code < 4 ? alphabet_code : kRnaOther;
}

// Replaces each RNA-alphabet code of `codes` by its engine code in place;
// returns how many became kRnaOther.
uint64_t to_rna_engine_codes(std::span<uint8_t> codes) noexcept;

// A letter as an engine code (A C G U T any case -> 0..3, else kRnaOther):
// for tests and benchmarks that build sequences from text.
uint8_t rna_code_of_letter(char c) noexcept;
std::vector<uint8_t> rna_codes_of(std::string_view letters);

}  // namespace warpdp
