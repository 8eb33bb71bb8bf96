// Engine codes from the RNA alphabet's codes (rna_codes.hpp).
#include "core/nussinov/rna_codes.hpp"

#include "core/base/alphabet.hpp"

namespace warpdp {

uint64_t to_rna_engine_codes(std::span<uint8_t> codes) noexcept {
    uint64_t other = 0;
    for (auto& c : codes) {
        other += c >= 4;
        c = rna_engine_code(c);
    }
    return other;
}

uint8_t rna_code_of_letter(char c) noexcept {
    const int8_t code = Alphabet::rna().digitize(static_cast<unsigned char>(c));
    return code < 0 ? kRnaOther : rna_engine_code(static_cast<uint8_t>(code));
}

std::vector<uint8_t> rna_codes_of(std::string_view letters) {
    std::vector<uint8_t> out;
    out.reserve(letters.size());
    for (char c : letters) out.push_back(rna_code_of_letter(c));
    return out;
}

}  // namespace warpdp
