// Scalar Forward and Backward (docs/hmmer-filters.md §16.2). A parser matrix
// keeps one row of cells, and the row loops read each position of the
// previous row before they overwrite it, as HMMER's do, so the same code
// fills both kinds of matrix.
#include "core/hmmer/domains/dom_fwdback.hpp"

#include <cmath>
#include <limits>

#include "core/base/errors.hpp"
#include "core/hmmer/domains/dom_lanes.hpp"

namespace warpdp {

using namespace dom_lanes;

namespace {

void store_specials(DomMatrix& mx, uint64_t i, float xE, float xN, float xJ, float xB, float xC) {
    mx.x(i, kDomXE) = xE;
    mx.x(i, kDomXN) = xN;
    mx.x(i, kDomXJ) = xJ;
    mx.x(i, kDomXB) = xB;
    mx.x(i, kDomXC) = xC;
}

// Every cell of row i times fl(1 / scale), the reciprocal taken in double.
void rescale_row(DomMatrix& mx, uint64_t i, float scale) {
    const Lanes r = splat(recip_dbl(scale));
    for (int q = 0; q < mx.Q(); ++q)
        for (DomCell s : {kDomM, kDomD, kDomI}) store(mx.cell(i, q, s), mul(load(mx.cell(i, q, s)), r));
}

// HMMER's range error on a final odds value: NaN, 0 (for L > 0) or +inf.
bool range_error(float v, uint64_t L) { return std::isnan(v) || (L > 0 && v == 0.0f) || v == std::numeric_limits<float>::infinity(); }

}  // namespace

float dom_forward(const FwdProfile& p, const DomSpecialOdds& odds, std::span<const uint8_t> dsq, DomMatrix& mx,
                  bool full) {
    const int Q = p.Q;
    const uint64_t L = dsq.size();
    mx.resize(p.M, L, full);  // row 0 of cells is 0
    mx.has_own_scales = true;
    mx.totscale = 0.0f;
    float xE = 0.0f, xN = 1.0f, xJ = 0.0f, xB = odds.n_move, xC = 0.0f;
    store_specials(mx, 0, xE, xN, xJ, xB, xC);
    mx.x(0, kDomXScale) = 1.0f;

    for (uint64_t i = 1; i <= L; ++i) {
        const uint8_t x = dsq[i - 1];
        Lanes dcv{}, xEv{};
        const Lanes xBv = splat(xB);
        // Row i-1's last position, one lane on: node k-1 of position 0.
        Lanes mpv = shift_up(load(mx.cell(i - 1, Q - 1, kDomM)));
        Lanes dpv = shift_up(load(mx.cell(i - 1, Q - 1, kDomD)));
        Lanes ipv = shift_up(load(mx.cell(i - 1, Q - 1, kDomI)));
        for (int q = 0; q < Q; ++q) {
            Lanes sv = mul(xBv, p.t(q, kFBM));
            sv = add(sv, mul(mpv, p.t(q, kFMM)));
            sv = add(sv, mul(ipv, p.t(q, kFIM)));
            sv = add(sv, mul(dpv, p.t(q, kFDM)));
            sv = mul(sv, p.e(x, q));
            xEv = add(xEv, sv);
            mpv = load(mx.cell(i - 1, q, kDomM));
            dpv = load(mx.cell(i - 1, q, kDomD));
            ipv = load(mx.cell(i - 1, q, kDomI));
            store(mx.cell(i, q, kDomM), sv);
            store(mx.cell(i, q, kDomD), dcv);  // M->D from position q-1 (0 at q = 0)
            dcv = mul(sv, p.t(q, kFMD));
            store(mx.cell(i, q, kDomI), add(mul(mpv, p.t(q, kFMI)), mul(ipv, p.t(q, kFII))));
        }
        // D->D: a pass carrying the D values, then up to three carrying only
        // the D->D extensions across the lane boundary (§7.2).
        dcv = shift_up(dcv);
        store(mx.cell(i, 0, kDomD), Lanes{});
        for (int q = 0; q < Q; ++q) {
            const Lanes d = add(dcv, load(mx.cell(i, q, kDomD)));
            store(mx.cell(i, q, kDomD), d);
            dcv = mul(d, p.t(q, kFDD));
        }
        for (int pass = 1; pass < kFwdLanes; ++pass) {
            dcv = shift_up(dcv);
            bool changed = false;
            for (int q = 0; q < Q; ++q) {
                const Lanes old = load(mx.cell(i, q, kDomD));
                const Lanes d = add(dcv, old);
                for (int z = 0; z < kFwdLanes; ++z) changed = changed || d[z] > old[z];
                store(mx.cell(i, q, kDomD), d);
                dcv = mul(dcv, p.t(q, kFDD));
            }
            if (p.M >= 100 && !changed) break;  // small models always run all three
        }
        for (int q = 0; q < Q; ++q) xEv = add(load(mx.cell(i, q, kDomD)), xEv);
        xE = hsum(xEv);

        xN = mul(xN, odds.n_loop);
        xC = add(mul(xC, odds.c_loop), mul(xE, odds.e_move));
        xJ = add(mul(xJ, odds.j_loop), mul(xE, odds.e_loop));
        xB = add(mul(xJ, odds.j_move), mul(xN, odds.n_move));
        if (xE > 1.0e4f) {  // sparse rescaling: the row's E becomes 1
            xN = div(xN, xE);
            xC = div(xC, xE);
            xJ = div(xJ, xE);
            xB = div(xB, xE);
            rescale_row(mx, i, xE);
            mx.x(i, kDomXScale) = xE;
            mx.totscale = static_cast<float>(static_cast<double>(mx.totscale) + std::log(static_cast<double>(xE)));
            xE = 1.0f;
        } else {
            mx.x(i, kDomXScale) = 1.0f;
        }
        store_specials(mx, i, xE, xN, xJ, xB, xC);
    }
    if (range_error(xC, L)) return std::numeric_limits<float>::quiet_NaN();
    return static_cast<float>(static_cast<double>(mx.totscale) + std::log(static_cast<double>(mul(xC, odds.c_move))));
}

float dom_backward(const FwdProfile& p, const DomSpecialOdds& odds, std::span<const uint8_t> dsq,
                   const DomMatrix& fwd, DomMatrix& bck, bool full) {
    const int Q = p.Q;
    const uint64_t L = dsq.size();
    if (fwd.L() != L || fwd.M() != p.M)
        throw InternalError("Backward given a Forward matrix of another model or target");
    if (L == 0) return std::numeric_limits<float>::quiet_NaN();
    bck.resize(p.M, L, full);
    bck.has_own_scales = false;  // the Forward matrix's factors, until they fall short
    const auto e = [&](uint64_t i, int q) { return p.e(dsq[i - 1], q); };

    // Row L: C->T, E->C, and every M and D may end (E).
    float xJ = 0.0f, xB = 0.0f, xN = 0.0f;
    float xC = odds.c_move;
    float xE = mul(xC, odds.e_move);
    for (int q = 0; q < Q; ++q) {
        store(bck.cell(L, q, kDomM), splat(xE));
        store(bck.cell(L, q, kDomD), splat(xE));
        store(bck.cell(L, q, kDomI), Lanes{});
    }
    // D->D of row L: HMMER seeds the first pass with position Q-1, not 0;
    // every D holds xE here, so the two are the same values.
    Lanes dpv = shift_down(load(bck.cell(L, Q - 1, kDomD)));
    Lanes dcv{};
    for (int q = Q - 1; q >= 0; --q) {
        dcv = mul(dpv, p.t(q, kFDD));
        const Lanes d = add(load(bck.cell(L, q, kDomD)), dcv);
        store(bck.cell(L, q, kDomD), d);
        dpv = d;
    }
    for (int pass = 1; pass < kFwdLanes; ++pass) {
        dcv = shift_down(dcv);
        for (int q = Q - 1; q >= 0; --q) {
            dcv = mul(dcv, p.t(q, kFDD));
            store(bck.cell(L, q, kDomD), add(load(bck.cell(L, q, kDomD)), dcv));
        }
    }
    // M->D of row L.
    dcv = shift_down(load(bck.cell(L, 0, kDomD)));
    for (int q = Q - 1; q >= 0; --q) {
        store(bck.cell(L, q, kDomM), add(load(bck.cell(L, q, kDomM)), mul(dcv, p.t(q, kFMD))));
        dcv = load(bck.cell(L, q, kDomD));
    }
    {
        const float scale = fwd.x(L, kDomXScale);
        if (scale > 1.0f) {
            xE = div(xE, scale);
            xN = div(xN, scale);
            xC = div(xC, scale);
            xJ = div(xJ, scale);
            xB = div(xB, scale);
            rescale_row(bck, L, scale);
        }
        bck.x(L, kDomXScale) = scale;
        bck.totscale = static_cast<float>(std::log(static_cast<double>(scale)));
    }
    store_specials(bck, L, xE, xN, xJ, xB, xC);

    for (uint64_t i = L - 1; i >= 1; --i) {
        // Phase 1: I(i) complete, M(i) and D(i) without their paths to D
        // and E, B(i) collected. Each position of row i+1 is read before
        // row i's is written (one shared row in a parser matrix).
        Lanes tmmv = shift_down(load(p.t(0, kFMM)));
        Lanes timv = shift_down(load(p.t(0, kFIM)));
        Lanes tdmv = shift_down(load(p.t(0, kFDM)));
        Lanes mpv = shift_down(mul(load(bck.cell(i + 1, 0, kDomM)), e(i + 1, 0)));
        Lanes xBv{};
        for (int q = Q - 1; q >= 0; --q) {
            const Lanes ipv = load(bck.cell(i + 1, q, kDomI));
            store(bck.cell(i, q, kDomI), add(mul(ipv, p.t(q, kFII)), mul(mpv, timv)));
            store(bck.cell(i, q, kDomD), mul(mpv, tdmv));
            const Lanes mcv = add(mul(ipv, p.t(q, kFMI)), mul(mpv, tmmv));
            mpv = mul(load(bck.cell(i + 1, q, kDomM)), e(i + 1, q));
            store(bck.cell(i, q, kDomM), mcv);
            tdmv = load(p.t(q, kFDM));
            timv = load(p.t(q, kFIM));
            tmmv = load(p.t(q, kFMM));
            xBv = add(xBv, mul(mpv, p.t(q, kFBM)));
        }
        // Phase 2: the specials.
        xB = hsum(xBv);
        xC = mul(xC, odds.c_loop);
        xJ = add(mul(xB, odds.j_move), mul(xJ, odds.j_loop));
        xN = add(mul(xB, odds.n_move), mul(xN, odds.n_loop));
        xE = add(mul(xC, odds.e_move), mul(xJ, odds.e_loop));
        const Lanes xEv = splat(xE);
        // Phase 3: M->E, D->E, and one D->D pass.
        dpv = shift_down(add(load(bck.cell(i, 0, kDomD)), xEv));
        for (int q = Q - 1; q >= 0; --q) {
            dcv = mul(dpv, p.t(q, kFDD));
            const Lanes d = add(load(bck.cell(i, q, kDomD)), add(dcv, xEv));
            store(bck.cell(i, q, kDomD), d);
            dpv = d;
            store(bck.cell(i, q, kDomM), add(load(bck.cell(i, q, kDomM)), xEv));
        }
        // Phase 4: three more D->D passes, always (no early exit in Backward).
        for (int pass = 1; pass < kFwdLanes; ++pass) {
            dcv = shift_down(dcv);
            for (int q = Q - 1; q >= 0; --q) {
                dcv = mul(dcv, p.t(q, kFDD));
                store(bck.cell(i, q, kDomD), add(load(bck.cell(i, q, kDomD)), dcv));
            }
        }
        // Phase 5: M->D.
        dcv = shift_down(load(bck.cell(i, 0, kDomD)));
        for (int q = Q - 1; q >= 0; --q) {
            store(bck.cell(i, q, kDomM), add(load(bck.cell(i, q, kDomM)), mul(dcv, p.t(q, kFMD))));
            dcv = load(bck.cell(i, q, kDomD));
        }
        // Rescaling by the Forward factor of row i, unless B overflows the
        // range those leave: then by its own factors from here on (§16.2).
        if (static_cast<double>(xB) > 1.0e16) bck.has_own_scales = true;
        const float scale = bck.has_own_scales ? (xB > 1.0e4f ? xB : 1.0f) : fwd.x(i, kDomXScale);
        bck.x(i, kDomXScale) = scale;
        if (scale > 1.0f) {
            xE = div(xE, scale);
            xN = div(xN, scale);
            xJ = div(xJ, scale);
            xB = div(xB, scale);
            xC = div(xC, scale);
            rescale_row(bck, i, scale);
            bck.totscale = static_cast<float>(static_cast<double>(bck.totscale) + std::log(static_cast<double>(scale)));
        }
        store_specials(bck, i, xE, xN, xJ, xB, xC);
    }

    // Row 0: only N and B, B collecting the entries into row 1.
    Lanes xBv{};
    for (int q = 0; q < Q; ++q) {
        Lanes mpv = mul(load(bck.cell(1, q, kDomM)), e(1, q));
        mpv = mul(mpv, p.t(q, kFBM));
        xBv = add(xBv, mpv);
    }
    xB = hsum(xBv);
    xN = add(mul(xB, odds.n_move), mul(xN, odds.n_loop));
    store_specials(bck, 0, 0.0f, xN, 0.0f, xB, 0.0f);
    bck.x(0, kDomXScale) = 1.0f;
    if (full)
        for (int q = 0; q < Q; ++q)
            for (DomCell s : {kDomM, kDomD, kDomI}) store(bck.cell(0, q, s), Lanes{});

    if (range_error(xN, L)) return std::numeric_limits<float>::quiet_NaN();
    return static_cast<float>(static_cast<double>(bck.totscale) + std::log(static_cast<double>(xN)));
}

}  // namespace warpdp
