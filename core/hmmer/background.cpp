// Null model values. The literals are float on purpose: HMMER keeps them as
// float, and every emission score divides by exactly these roundings.
#include "core/hmmer/background.hpp"

#include <cmath>
#include <string>

#include "core/base/errors.hpp"

namespace warpdp {

const std::vector<float>& background_frequencies(AlphabetKind kind) {
    static const std::vector<float> amino{
        0.0787945f, 0.0151600f, 0.0535222f, 0.0668298f, 0.0397062f,  // A C D E F
        0.0695071f, 0.0229198f, 0.0590092f, 0.0594422f, 0.0963728f,  // G H I K L
        0.0237718f, 0.0414386f, 0.0482904f, 0.0395639f, 0.0540978f,  // M N P Q R
        0.0683364f, 0.0540687f, 0.0673417f, 0.0114135f, 0.0304133f,  // S T V W Y
    };
    // 1.0/(float)K: a double quotient stored to float (exactly 0.25).
    static const std::vector<float> nucleic(4, static_cast<float>(1.0 / static_cast<float>(4)));
    return kind == AlphabetKind::amino ? amino : nucleic;
}

float null_score(uint64_t L) {
    if (L > kHmmerMaxTargetLength)
        throw InternalError("null_score: target length " + std::to_string(L) + " over the float limit");
    const float p1 = static_cast<float>(L) / static_cast<float>(L + 1);
    const double p = static_cast<double>(p1);
    return static_cast<float>(static_cast<double>(L) * std::log(p) + std::log(1.0 - p));
}

}  // namespace warpdp
