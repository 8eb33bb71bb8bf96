// Posterior decoding (docs/hmmer-filters.md §16.2). The scale product starts
// from 1 / N(0) of Backward; while Backward used the Forward factors, each
// row's Forward factor alone makes F * B a probability, and once Backward
// has its own factors the ratio of the two factors of each row accumulates.
#include "core/hmmer/domains/dom_decoding.hpp"

#include <cmath>

#include "core/base/errors.hpp"
#include "core/hmmer/domains/dom_lanes.hpp"

namespace warpdp {

using namespace dom_lanes;

namespace {

void check_pair(const DomMatrix& fwd, const DomMatrix& bck, bool need_full) {
    if (fwd.L() != bck.L() || fwd.M() != bck.M()) throw InternalError("decoding given Forward and Backward matrices of different shapes");
    if (need_full && !(fwd.full() && bck.full())) throw InternalError("posterior decoding needs full Forward and Backward matrices");
}

}  // namespace

DomDecodeStatus dom_decoding(const DomSpecialOdds& odds, const DomMatrix& fwd, const DomMatrix& bck, DomMatrix& pp) {
    check_pair(fwd, bck, true);
    const uint64_t L = fwd.L();
    const int Q = fwd.Q();
    // Read before pp, which may be bck, is written.
    float scaleproduct = recip_dbl(bck.x(0, kDomXN));
    const bool own_scales = bck.has_own_scales;
    if (&pp != &bck) pp.resize(fwd.M(), L, true);

    for (int q = 0; q < Q; ++q)
        for (DomCell s : {kDomM, kDomD, kDomI}) store(pp.cell(0, q, s), Lanes{});
    for (DomSpecial s : {kDomXE, kDomXN, kDomXJ, kDomXC, kDomXB}) pp.x(0, s) = 0.0f;

    for (uint64_t i = 1; i <= L; ++i) {
        const Lanes totr = splat(mul(scaleproduct, fwd.x(i, kDomXScale)));
        for (int q = 0; q < Q; ++q) {
            store(pp.cell(i, q, kDomM), mul(mul(load(fwd.cell(i, q, kDomM)), bck.cell(i, q, kDomM)), totr));
            store(pp.cell(i, q, kDomD), Lanes{});
            store(pp.cell(i, q, kDomI), mul(mul(load(fwd.cell(i, q, kDomI)), bck.cell(i, q, kDomI)), totr));
        }
        // Each line reads bck's row i before pp's (maybe the same cell) is written.
        pp.x(i, kDomXE) = 0.0f;
        pp.x(i, kDomXN) = mul(mul(mul(fwd.x(i - 1, kDomXN), bck.x(i, kDomXN)), odds.n_loop), scaleproduct);
        pp.x(i, kDomXJ) = mul(mul(mul(fwd.x(i - 1, kDomXJ), bck.x(i, kDomXJ)), odds.j_loop), scaleproduct);
        pp.x(i, kDomXC) = mul(mul(mul(fwd.x(i - 1, kDomXC), bck.x(i, kDomXC)), odds.c_loop), scaleproduct);
        pp.x(i, kDomXB) = 0.0f;
        if (own_scales) scaleproduct = mul(scaleproduct, div(fwd.x(i, kDomXScale), bck.x(i, kDomXScale)));
    }
    return std::isinf(scaleproduct) ? DomDecodeStatus::overflow : DomDecodeStatus::ok;
}

DomDecodeStatus dom_domain_decoding(const DomSpecialOdds& odds, const DomMatrix& fwd, const DomMatrix& bck,
                                    DomOccupancy& out) {
    check_pair(fwd, bck, false);
    return dom_domain_decoding(odds, DomSpecialRows{fwd.specials(), fwd.has_own_scales},
                               DomSpecialRows{bck.specials(), bck.has_own_scales}, out);
}

DomDecodeStatus dom_domain_decoding(const DomSpecialOdds& odds, DomSpecialRows fwd, DomSpecialRows bck,
                                    DomOccupancy& out) {
    if (fwd.x.size() != bck.x.size() || fwd.x.size() % kDomSpecials != 0 || fwd.x.empty())
        throw InternalError("domain decoding given special rows of different or broken shapes");
    const uint64_t L = fwd.x.size() / kDomSpecials - 1;
    out.mocc.assign(L + 1, 0.0f);
    out.btot.assign(L + 1, 0.0f);
    out.etot.assign(L + 1, 0.0f);
    float scaleproduct = recip_dbl(bck(0, kDomXN));
    for (uint64_t i = 1; i <= L; ++i) {
        // scaleproduct covers rows 0..i-2 here
        out.btot[i] = add(out.btot[i - 1],
                          mul(mul(mul(fwd(i - 1, kDomXB), bck(i - 1, kDomXB)), fwd(i - 1, kDomXScale)), scaleproduct));
        if (bck.own_scales)
            scaleproduct = mul(scaleproduct, div(fwd(i - 1, kDomXScale), bck(i - 1, kDomXScale)));
        // and rows 0..i-1 from here
        out.etot[i] = add(out.etot[i - 1],
                          mul(mul(mul(fwd(i, kDomXE), bck(i, kDomXE)), fwd(i, kDomXScale)), scaleproduct));
        float njcp = mul(mul(mul(fwd(i - 1, kDomXN), bck(i, kDomXN)), odds.n_loop), scaleproduct);
        njcp = add(njcp, mul(mul(mul(fwd(i - 1, kDomXJ), bck(i, kDomXJ)), odds.j_loop), scaleproduct));
        njcp = add(njcp, mul(mul(mul(fwd(i - 1, kDomXC), bck(i, kDomXC)), odds.c_loop), scaleproduct));
        out.mocc[i] = flush_denormal(static_cast<float>(1.0 - static_cast<double>(njcp)));  // HMMER's 1. is a double
    }
    return std::isinf(scaleproduct) ? DomDecodeStatus::overflow : DomDecodeStatus::ok;
}

}  // namespace warpdp
