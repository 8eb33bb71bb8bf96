// The Viterbi filter's 16-bit word profile (HMMER 3.3.2 impl_sse "wordify",
// docs/hmmer-filters.md §6.1), shared by the scalar reference and the engines.
// Scores are in 1/500 bits; -32768 plays -inf; arithmetic saturates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace warpdp {

struct Profile;

inline constexpr int16_t kWordNegInf = -32768;
inline constexpr int kVitBase = 12000;   // base_w
inline constexpr int16_t kVitEMove = -500;  // E->C and E->J: word(-ln 2)
inline constexpr uint32_t kVitOverflow = 0xFFFFFFFFu;  // raw result "score = +inf"
inline constexpr uint32_t kVitNoPath = 0xFFFFFFFEu;    // raw result "score = -inf"

// Transition slots, all "into node k" except MD/MI/II/DD which leave node k.
enum VitTrans : int { kVBM = 0, kVMM, kVIM, kVDM, kVMD, kVMI, kVII, kVDD, kVitNumTrans };

struct VitWordProfile {
    int M = 0;
    int Kp = 29;
    // emit[x * (M + 1) + k]: match emission word of code x at node k (k = 1..M).
    std::vector<int16_t> emit;
    // trans[k * kVitNumTrans + slot], k = 1..M (see VitTrans).
    std::vector<int16_t> trans;

    int16_t e(int x, int k) const noexcept {
        return emit[static_cast<size_t>(x) * static_cast<size_t>(M + 1) + static_cast<size_t>(k)];
    }
    int16_t t(int k, VitTrans s) const noexcept {
        return trans[static_cast<size_t>(k) * kVitNumTrans + static_cast<size_t>(s)];
    }
};

VitWordProfile build_vit_profile(const Profile& prof);

// word(): float score -> int16 in 1/500 bits with HMMER's rounding and clamps.
int16_t vit_word(float sc);
// NCJmove(L): per-target N->B / J->B / C->T move in words.
int16_t vit_ncj_move(uint64_t L);

// Raw Viterbi-filter result -> nats (the final conversion of
// docs/hmmer-filters.md §6.2): xC as the raw value (0..65535 = xC + 32768),
// kVitOverflow -> +inf, kVitNoPath -> -inf.
float vit_nats(uint32_t raw, uint64_t L);

}  // namespace warpdp
