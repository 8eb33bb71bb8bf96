// The matrix, its statistics and its codes, as gpu-sw's options choose them.
#include "tools/sw/sw_matrix_choice.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"

namespace warpdp {

namespace {
std::string joined(const std::vector<std::string>& items) {
    std::string s;
    for (const auto& x : items) s += (s.empty() ? "" : ", ") + x;
    return s;
}
}  // namespace

SwMatrix choose_sw_matrix(const std::string& spec) {
    const auto names = SwMatrix::builtin_names();
    std::string upper = spec;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (std::find(names.begin(), names.end(), upper) != names.end()) return SwMatrix::builtin(upper);
    if (spec.empty()) throw UsageError("--matrix is empty");
    if (spec != "-" && !std::filesystem::exists(spec))
        throw InputError(spec, 0, "no such file, and not a built-in matrix (" + joined(names) + ")");
    return SwMatrix::read_ncbi(spec);
}

SwScoring sw_scoring(const SwMatrix& matrix, SwGapCosts gaps) {
    // BLAST's open + k * extend is the engines' first residue open + extend,
    // then extend a residue (docs/sw.md §1).
    return SwScoring{&matrix, gaps.open + gaps.extend, gaps.extend};
}

SwKarlinParams choose_sw_statistics(const SwMatrix& matrix, SwGapCosts gaps) {
    const std::string name = sw_statistics_name(matrix);
    if (auto k = sw_karlin_params(name, gaps.open, gaps.extend)) return *k;
    const std::string known = joined(sw_karlin_gap_pairs(name));
    throw UsageError("BLAST has no statistics for " + name + " with --gap-open " + std::to_string(gaps.open) +
                     " --gap-extend " + std::to_string(gaps.extend) +
                     (known.empty() ? std::string(" (it has none for this matrix)")
                                    : " (it has open/extend " + known + ")") +
                     "; --no-evalue reports scores without bit scores and E-values");
}

SwCodes::SwCodes(const SwMatrix& m) {
    const Alphabet& abc = Alphabet::amino();
    const size_t n = static_cast<size_t>(abc.Kp());
    const char unknown_letter = m.letters()[m.unknown_code()];
    to_matrix.resize(n);
    to_class.resize(n);
    for (size_t c = 0; c < n; ++c) {
        const char letter = abc.symbol(static_cast<int>(c));
        to_matrix[c] = m.code_of(static_cast<unsigned char>(letter));
        const bool shares = to_matrix[c] == m.unknown_code() && letter != unknown_letter;
        to_class[c] = static_cast<uint8_t>(shares ? kSwMaxLetters + c : to_matrix[c]);
    }
}

}  // namespace warpdp
