// When the Viterbi filter may run in plain (wrapping) int16 arithmetic, two
// values per 32-bit word, and still equal HMMER's saturating filter bit for
// bit. Hopper's 16-bit DPX adds wrap instead of saturating; this file holds
// the model-and-length conditions under which no computed sum can leave the
// int16 range and no HMMER saturation can change a result, the 16-bit
// profile words used under them, and a scalar emulation of that arithmetic
// (which counts wraps) so CPU tests can check the argument on random inputs.
//
// The argument, in HMMER's units (kernel values are HMMER's minus K):
//  * Upward: before a target overflows every value is <= 32766, so a match
//    cell is <= 32766 + e_max. Shifting everything down by K = e_max - 1 keeps
//    it <= 32767; overflow is "some M >= 32767 - K".
//  * Downward: xB >= 12000 + NCJmove(L), so every match cell of a row >= 1 is
//    at least Q + e_min with Q = xB_min + min tBM, every insert cell of a row
//    >= 2 at least that + min tMI, every delete cell of a node >= 2 at least
//    that + min tMD. If all these lower bounds are >= F = -32768 - t_min
//    (t_min: the most negative transition word in use), no sum x + t of a
//    real value can wrap, HMMER never saturates a value that wins a max, and
//    -inf may be played by F: every term built from it is <= F and loses to
//    a real term of the same max (M has its B->M term, I(2,k) its M->I term,
//    D(k >= 2) its M->D term).
//  * Unused transitions (into node 1 from node 0; out of node M) become 0,
//    and nodes past M (padding to the kernel's width) get transitions 0,
//    emissions 0 and B->M = tbm_pad: their values then never exceed the
//    running maximum of real match cells, so they may join it.
//  * xC = max over all rows of xE - 500 = (max of all match cells) - 500, and
//    xB needs xE only once some match cell exceeds 12500 (before that
//    xJ - 500 <= xN); the kernel keeps a running maximum and reduces it
//    across lanes only then.
// Codes with a -inf emission anywhere (gap, '*', '~' in HMMER's alphabets)
// break the e_min bound: targets holding them take the int32 kernel, as do
// targets longer than max_len and all targets of a model with no safe length.
#pragma once

#include <cstdint>
#include <span>

#include "core/hmmer/vit/vit_profile.hpp"

namespace warpdp {

struct Vit16Plan {
    bool ok = false;       // some target length is safe
    int K = 0;             // kernel value = HMMER value - K
    int F = 0;             // stands for -inf; every real value is >= F
    int tbm_pad = 0;       // B->M word of nodes past M
    uint64_t max_len = 0;  // targets of length 1..max_len are safe
    uint32_t bad_codes = 0;  // bit x: code x has a -inf emission (a target holding it is not safe)
};

// The plan for `p`, with max_len the longest safe target length (capped at 2^40).
Vit16Plan vit16_plan(const VitWordProfile& p);

// Transition word of node k (1-based; k > M is padding) as the 16-bit kernel uses it.
int16_t vit16_trans(const VitWordProfile& p, const Vit16Plan& plan, int k, VitTrans slot);
// Emission word of code x at node k (k > M is padding: 0).
int16_t vit16_emit(const VitWordProfile& p, int x, int k);

// Scalar emulation of the 16-bit kernel's arithmetic (wrapping int16, shift
// K, -inf as F, npad padding nodes, running maximum, lazy xB): equals
// vit_reference whenever plan.ok, 1 <= L <= plan.max_len and no code of the
// target is in plan.bad_codes. Adds to *wraps the number of sums that wrapped.
uint32_t vit16_emulate(const VitWordProfile& p, const Vit16Plan& plan, std::span<const uint8_t> dsq, int npad,
                       uint64_t* wraps);

}  // namespace warpdp
