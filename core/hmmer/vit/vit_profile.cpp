// Building the Viterbi word profile from the float profile
// (docs/hmmer-filters.md §6.1).
#include "core/hmmer/vit/vit_profile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/base/errors.hpp"
#include "core/hmmer/hmmer_units.hpp"
#include "core/hmmer/profile.hpp"

namespace warpdp {

// HMMER's wordify(): +-inf saturate like any large score. A NaN passes
// both tests, and casting it is undefined (in HMMER too, whose x86 build
// makes it 0); the reader refuses the models that give one (HmmReader's
// check_entry_scores), so a NaN here is a bug, never a score.
int16_t vit_word(float sc) {
    const float r = std::roundf(hmmer::kScaleW * sc);
    if (r >= 32767.0f) return 32767;
    if (r <= -32768.0f) return kWordNegInf;
    if (std::isnan(r)) throw InternalError("vit_word: a profile score is NaN");
    return static_cast<int16_t>(static_cast<int>(r));
}

int16_t vit_ncj_move(uint64_t L) { return vit_word(std::log(profile_pmove(L))); }

VitWordProfile build_vit_profile(const Profile& prof) {
    VitWordProfile w;
    w.M = prof.M;
    w.Kp = prof.Kp;
    const int M = prof.M;
    w.emit.assign(static_cast<size_t>(w.Kp) * static_cast<size_t>(M + 1), kWordNegInf);
    for (int x = 0; x < w.Kp; ++x)
        for (int k = 1; k <= M; ++k)
            w.emit[static_cast<size_t>(x) * static_cast<size_t>(M + 1) + static_cast<size_t>(k)] =
                vit_word(prof.match_score(k, x));
    w.trans.assign(static_cast<size_t>(M + 1) * kVitNumTrans, kWordNegInf);
    auto cap0 = [](int16_t v) { return static_cast<int16_t>(std::min<int>(0, v)); };
    auto tsc = [&](int k, int t) { return prof.tsc[static_cast<size_t>(k)][static_cast<size_t>(t)]; };
    for (int k = 1; k <= M; ++k) {
        int16_t* tr = &w.trans[static_cast<size_t>(k) * kVitNumTrans];
        tr[kVBM] = cap0(vit_word(prof.tbm[static_cast<size_t>(k)]));
        if (k > 1) {  // node 0's transitions other than the entry are -inf
            tr[kVMM] = cap0(vit_word(tsc(k - 1, kTMM)));
            tr[kVIM] = cap0(vit_word(tsc(k - 1, kTIM)));
            tr[kVDM] = cap0(vit_word(tsc(k - 1, kTDM)));
        }
        if (k < M) {
            tr[kVMD] = cap0(vit_word(tsc(k, kTMD)));
            tr[kVMI] = cap0(vit_word(tsc(k, kTMI)));
            // II is forced <= -1 so an I->I loop can never be free.
            tr[kVII] = static_cast<int16_t>(std::min<int>(-1, vit_word(tsc(k, kTII))));
            tr[kVDD] = vit_word(tsc(k, kTDD));
        }
    }
    return w;
}

float vit_nats(uint32_t raw, uint64_t L) {
    if (raw == kVitOverflow) return std::numeric_limits<float>::infinity();
    if (raw == kVitNoPath) return -std::numeric_limits<float>::infinity();
    const int xC = static_cast<int>(raw) - 32768;
    const float a = static_cast<float>(xC) + static_cast<float>(vit_ncj_move(L));
    const float b = a - 12000.0f;
    const float c = b / hmmer::kScaleW;
    return static_cast<float>(static_cast<double>(c) - 3.0);
}

}  // namespace warpdp
