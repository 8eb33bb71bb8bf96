// The structure check of nussinov_traceback.hpp: a dot-bracket string
// re-scored from the sequence alone, with no table, so that it can judge
// any engine's output (docs/nussinov.md §2, §4).
#include "core/nussinov/nussinov_traceback.hpp"

namespace warpdp {

NussinovStructureCheck nussinov_check_structure(std::span<const uint8_t> codes, const NussinovParams& p,
                                                const std::string& structure) {
    NussinovStructureCheck r;
    if (structure.size() != codes.size()) {
        r.error = "structure has " + std::to_string(structure.size()) + " characters for " +
                  std::to_string(codes.size()) + " bases";
        return r;
    }
    std::vector<size_t> open;
    for (size_t j = 0; j < structure.size(); ++j) {
        const char c = structure[j];
        if (c == '(') {
            open.push_back(j);
        } else if (c == ')') {
            if (open.empty()) {
                r.error = "')' at " + std::to_string(j) + " closes nothing";
                return r;
            }
            const size_t i = open.back();
            open.pop_back();
            const int w = p.weight(codes[i], codes[j]);
            if (w < 0) {
                r.error = "pair (" + std::to_string(i) + ", " + std::to_string(j) + ") joins bases that may not pair";
                return r;
            }
            if (static_cast<int64_t>(j - i - 1) < p.min_loop) {
                r.error = "pair (" + std::to_string(i) + ", " + std::to_string(j) + ") encloses fewer than " +
                          std::to_string(p.min_loop) + " bases";
                return r;
            }
            r.score += w;
            ++r.pairs;
        } else if (c != '.') {
            r.error = std::string("character '") + c + "' at " + std::to_string(j) + " is not '(', ')' or '.'";
            return r;
        }
    }
    if (!open.empty()) r.error = "'(' at " + std::to_string(open.back()) + " is never closed";
    return r;
}

}  // namespace warpdp
