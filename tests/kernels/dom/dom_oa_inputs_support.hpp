// Inputs of the optimal-accuracy fill for the tests of its CUDA forms
// (tests/kernels/dom): one model's envelopes, with posteriors decoded on the
// CPU from homologs and random targets, or made up (eighths that tie, any
// floats, zeros) on models with missing inserts and deletes; and the
// comparison of a filled OA matrix with the CPU's.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/hmmer/domains/dom_cpu.hpp"
#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_specials.hpp"
#include "core/hmmer/profile.hpp"
#include "dom_test_support.hpp"
#include "fwd_test_support.hpp"

namespace warpdp::test {

// Enough digits to tell any two floats apart.
inline std::string num(float v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.9g", static_cast<double>(v));
    return b;
}

// The first cell or special of an OA matrix (cells `c`, specials `s`, in
// DomMatrix's layout) that differs from the CPU's `want`, or "".
inline std::string oa_matrix_diff(const float* c, const float* s, const DomMatrix& want) {
    for (uint64_t i = 0; i <= want.L(); ++i) {
        for (int q = 0; q < want.Q(); ++q)
            for (DomCell cell : {kDomM, kDomD, kDomI})
                for (int z = 0; z < kFwdLanes; ++z) {
                    const float g = c[i * want.row_floats() +
                                      (static_cast<size_t>(q) * kDomCells + cell) * kFwdLanes + static_cast<size_t>(z)];
                    const float w = want.cell(i, q, cell)[z];
                    if (!same_score(g, w)) {
                        std::ostringstream o;
                        o << "row " << i << " q " << q << " cell " << cell << " lane " << z << ": got " << num(g)
                          << " want " << num(w);
                        return o.str();
                    }
                }
        for (DomSpecial x : {kDomXE, kDomXN, kDomXJ, kDomXB, kDomXC}) {
            const float g = s[i * kDomSpecials + x], w = want.x(i, x);
            if (!same_score(g, w)) {
                std::ostringstream o;
                o << "row " << i << " special " << x << ": got " << num(g) << " want " << num(w);
                return o.str();
            }
        }
    }
    return "";
}

// One model's envelopes: posterior matrices, their special odds and where
// each sits on its target (the traceback's i_offset).
struct Batch {
    const Alphabet* abc = &Alphabet::amino();
    FwdProfile fp;
    std::vector<DomMatrix> pp;
    std::vector<DomSpecialOdds> odds;
    std::vector<int64_t> offset;
};

// Posteriors decoded on the CPU (full matrices), for homologs and random
// targets of a random model of M nodes.
inline void add_decoded(Batch& b, int M, int n_hom, int max_rand) {
    const Hmm h = random_vit_hmm(M, frand(1.0f, 40.0f));
    b.fp = build_fwd_profile(build_profile(h));
    for (const auto& dsq : fwd_targets_for(h, n_hom, max_rand)) {
        const bool multihit = uniform(0, 1) == 1;
        const DomSpecialOdds o = dom_special_odds(dsq.size() + static_cast<size_t>(uniform(0, 50)), multihit);
        DomMatrix f, bk;
        if (std::isnan(dom_forward_cpu(b.fp, o, dsq, f, true))) continue;  // -inf codes: no path
        if (std::isnan(dom_backward_cpu(b.fp, o, dsq, f, bk, true))) continue;
        if (dom_decoding_cpu(o, f, bk, bk) != DomDecodeStatus::ok) continue;
        b.pp.push_back(std::move(bk));
        b.odds.push_back(o);
        b.offset.push_back(uniform(0, 5000));
    }
}

// A model of M nodes where some nodes lack inserts or deletes (zero
// transitions, masked by the fill and the traceback), with made-up
// posteriors in [0, 1]: eighths (sums tie often) or any floats, some zeros.
inline void add_made_up(Batch& b, int M, int n) {
    Hmm h = random_vit_hmm(M, frand(1.0f, 20.0f));
    for (int k = 1; k < M; ++k) {
        auto& t = h.t[static_cast<size_t>(k)];
        if (uniform(0, 4) == 0) t[kTMI] = t[kTII] = t[kTIM] = 0.0f;
        if (k + 1 < M && uniform(0, 4) == 0) {
            t[kTMD] = t[kTDD] = 0.0f;
            h.t[static_cast<size_t>(k) + 1][kTDM] = h.t[static_cast<size_t>(k) + 1][kTDD] = 0.0f;
        }
    }
    b.fp = build_fwd_profile(build_profile(h));
    for (int r = 0; r < n; ++r) {
        const auto L = static_cast<uint64_t>(uniform(1, M > 100 ? 120 : 250));
        const bool eighths = r % 2 == 0;
        b.pp.push_back(random_posteriors(M, L, eighths));
        b.odds.push_back(dom_special_odds(L + static_cast<uint64_t>(uniform(0, 50)), uniform(0, 1) == 1));
        b.offset.push_back(uniform(0, 5000));
    }
}

}  // namespace warpdp::test
