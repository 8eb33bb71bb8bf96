// When the Viterbi filter may run in plain (wrapping) int16 arithmetic, two
// values per 32-bit word, and still equal HMMER's saturating filter bit for
// bit (Hopper's 16-bit DPX adds wrap): the model-and-length conditions, the
// 16-bit profile words used under them, and a scalar emulation of that
// arithmetic that counts wraps, so CPU tests check the argument. The
// argument: docs/vit-cuda.md, "When wrapping int16 is exact".
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
