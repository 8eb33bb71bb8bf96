// Vector forms of Forward, Backward, decoding and null2 by trace
// (docs/hmmer-filters.md §16.2): the scalar references' steps with Lanes as GCC vectors. On x86-64
// the FPU's FTZ bit flushes denormal results as hmmsearch's does; elsewhere
// each result is flushed by hand.
#include "core/hmmer/domains/dom_cpu.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/base/errors.hpp"
#include "core/base/flush_to_zero.hpp"
#include "core/hmmer/domains/dom_null2.hpp"

namespace warpdp {
namespace {

typedef float v4 __attribute__((vector_size(16)));


inline float fl(float v) { return kHardwareFtz ? v : flush_denormal(v); }
inline v4 fl(v4 v) {
    if constexpr (!kHardwareFtz)
        for (int z = 0; z < kFwdLanes; ++z) v[z] = flush_denormal(v[z]);
    return v;
}
inline v4 ld(const float* p) {
    v4 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
inline void st(float* p, v4 v) { std::memcpy(p, &v, sizeof v); }
inline v4 splat(float v) { return v4{v, v, v, v}; }
inline v4 shift_up(v4 a) { return v4{0.0f, a[0], a[1], a[2]}; }
inline v4 shift_down(v4 a) { return v4{a[1], a[2], a[3], 0.0f}; }
inline float hsum(v4 a) { return fl(fl(a[0] + a[1]) + fl(a[2] + a[3])); }
inline float recip_dbl(float v) { return fl(static_cast<float>(1.0 / static_cast<double>(v))); }

inline size_t at(int q, DomCell s) { return (static_cast<size_t>(q) * kDomCells + static_cast<size_t>(s)) * kFwdLanes; }

// Cells of one row of a matrix, as vectors, through a pointer taken once a
// row: the memcpy stores may alias anything in memory, so indexing through
// the matrix would reload its fields after every store (§16.2).
struct Row {
    float* p;
    Row(DomMatrix& mx, uint64_t i) : p(mx.row(i)) {}
    v4 get(int q, DomCell s) const { return ld(p + at(q, s)); }
    void set(int q, DomCell s, v4 v) const { st(p + at(q, s), v); }
};

// The transitions of a profile, through a pointer held in a register.
struct Trans {
    const float* p;
    explicit Trans(const FwdProfile& fp) : p(fp.trans.data()) {}
    v4 operator()(int q, FwdTrans s) const {
        return ld(p + (static_cast<size_t>(q) * kFwdNumTrans + static_cast<size_t>(s)) * kFwdLanes);
    }
};

void store_specials(DomMatrix& mx, uint64_t i, float xE, float xN, float xJ, float xB, float xC) {
    mx.x(i, kDomXE) = xE;
    mx.x(i, kDomXN) = xN;
    mx.x(i, kDomXJ) = xJ;
    mx.x(i, kDomXB) = xB;
    mx.x(i, kDomXC) = xC;
}

void rescale_row(const Row& r, int Q, float scale) {
    const v4 s = splat(recip_dbl(scale));
    for (int q = 0; q < Q; ++q)
        for (DomCell c : {kDomM, kDomD, kDomI}) r.set(q, c, fl(r.get(q, c) * s));
}

bool range_error(float v, uint64_t L) { return std::isnan(v) || (L > 0 && v == 0.0f) || v == std::numeric_limits<float>::infinity(); }

}  // namespace

float dom_forward_cpu(const FwdProfile& p, const DomSpecialOdds& odds, std::span<const uint8_t> dsq, DomMatrix& mx,
                      bool full) {
    const FlushToZero ftz;
    const int Q = p.Q;
    const uint64_t L = dsq.size();
    // Rows 1..L are written whole before they are read; row 0 is cleared
    // here (a parser's only row, which row 1 then overwrites in place).
    mx.reshape(p.M, L, full);
    std::fill_n(mx.row(0), mx.row_floats(), 0.0f);
    mx.has_own_scales = true;
    mx.totscale = 0.0f;
    float xE = 0.0f, xN = 1.0f, xJ = 0.0f, xB = odds.n_move, xC = 0.0f;
    store_specials(mx, 0, xE, xN, xJ, xB, xC);
    mx.x(0, kDomXScale) = 1.0f;
    const Trans t(p);

    for (uint64_t i = 1; i <= L; ++i) {
        const Row prev(mx, i - 1), cur(mx, i);
        const float* rp = p.e(dsq[i - 1], 0);
        v4 dcv{}, xEv{};
        const v4 xBv = splat(xB);
        v4 mpv = shift_up(prev.get(Q - 1, kDomM)), dpv = shift_up(prev.get(Q - 1, kDomD)), ipv = shift_up(prev.get(Q - 1, kDomI));
        for (int q = 0; q < Q; ++q) {
            v4 sv = fl(xBv * t(q, kFBM));
            sv = fl(sv + fl(mpv * t(q, kFMM)));
            sv = fl(sv + fl(ipv * t(q, kFIM)));
            sv = fl(sv + fl(dpv * t(q, kFDM)));
            sv = fl(sv * ld(rp + static_cast<size_t>(q) * kFwdLanes));
            xEv = fl(xEv + sv);
            mpv = prev.get(q, kDomM);
            dpv = prev.get(q, kDomD);
            ipv = prev.get(q, kDomI);
            cur.set(q, kDomM, sv);
            cur.set(q, kDomD, dcv);
            dcv = fl(sv * t(q, kFMD));
            cur.set(q, kDomI, fl(fl(mpv * t(q, kFMI)) + fl(ipv * t(q, kFII))));
        }
        dcv = shift_up(dcv);
        cur.set(0, kDomD, v4{});
        for (int q = 0; q < Q; ++q) {
            const v4 d = fl(dcv + cur.get(q, kDomD));
            cur.set(q, kDomD, d);
            dcv = fl(d * t(q, kFDD));
        }
        for (int pass = 1; pass < kFwdLanes; ++pass) {
            dcv = shift_up(dcv);
            auto changed = v4{} < v4{};  // all false
            for (int q = 0; q < Q; ++q) {
                const v4 old = cur.get(q, kDomD);
                const v4 d = fl(dcv + old);
                changed |= d > old;
                cur.set(q, kDomD, d);
                dcv = fl(dcv * t(q, kFDD));
            }
            if (p.M >= 100 && !(changed[0] | changed[1] | changed[2] | changed[3])) break;
        }
        for (int q = 0; q < Q; ++q) xEv = fl(cur.get(q, kDomD) + xEv);
        xE = hsum(xEv);
        xN = fl(xN * odds.n_loop);
        xC = fl(fl(xC * odds.c_loop) + fl(xE * odds.e_move));
        xJ = fl(fl(xJ * odds.j_loop) + fl(xE * odds.e_loop));
        xB = fl(fl(xJ * odds.j_move) + fl(xN * odds.n_move));
        if (xE > 1.0e4f) {
            xN = fl(xN / xE);
            xC = fl(xC / xE);
            xJ = fl(xJ / xE);
            xB = fl(xB / xE);
            rescale_row(cur, Q, xE);
            mx.x(i, kDomXScale) = xE;
            mx.totscale = static_cast<float>(static_cast<double>(mx.totscale) + std::log(static_cast<double>(xE)));
            xE = 1.0f;
        } else {
            mx.x(i, kDomXScale) = 1.0f;
        }
        store_specials(mx, i, xE, xN, xJ, xB, xC);
    }
    if (range_error(xC, L)) return std::numeric_limits<float>::quiet_NaN();
    return static_cast<float>(static_cast<double>(mx.totscale) + std::log(static_cast<double>(fl(xC * odds.c_move))));
}

float dom_backward_cpu(const FwdProfile& p, const DomSpecialOdds& odds, std::span<const uint8_t> dsq,
                       const DomMatrix& fwd, DomMatrix& bck, bool full) {
    const int Q = p.Q;
    const uint64_t L = dsq.size();
    if (fwd.L() != L || fwd.M() != p.M)
        throw InternalError("Backward given a Forward matrix of another model or target");
    if (L == 0) return std::numeric_limits<float>::quiet_NaN();
    const FlushToZero ftz;
    // Every row is written whole before it is read (row 0 of a full matrix
    // is cleared at the end), so the cells need no clearing here.
    bck.reshape(p.M, L, full);
    bck.has_own_scales = false;
    const Trans t(p);

    float xJ = 0.0f, xB = 0.0f, xN = 0.0f;
    float xC = odds.c_move;
    float xE = fl(xC * odds.e_move);
    {
        const Row r(bck, L);
        for (int q = 0; q < Q; ++q) {
            r.set(q, kDomM, splat(xE));
            r.set(q, kDomD, splat(xE));
            r.set(q, kDomI, v4{});
        }
        v4 dpv = shift_down(r.get(Q - 1, kDomD)), dcv{};
        for (int q = Q - 1; q >= 0; --q) {
            dcv = fl(dpv * t(q, kFDD));
            const v4 d = fl(r.get(q, kDomD) + dcv);
            r.set(q, kDomD, d);
            dpv = d;
        }
        for (int pass = 1; pass < kFwdLanes; ++pass) {
            dcv = shift_down(dcv);
            for (int q = Q - 1; q >= 0; --q) {
                dcv = fl(dcv * t(q, kFDD));
                r.set(q, kDomD, fl(r.get(q, kDomD) + dcv));
            }
        }
        dcv = shift_down(r.get(0, kDomD));
        for (int q = Q - 1; q >= 0; --q) {
            r.set(q, kDomM, fl(r.get(q, kDomM) + fl(dcv * t(q, kFMD))));
            dcv = r.get(q, kDomD);
        }
        const float scale = fwd.x(L, kDomXScale);
        if (scale > 1.0f) {
            xE = fl(xE / scale);
            xN = fl(xN / scale);
            xC = fl(xC / scale);
            xJ = fl(xJ / scale);
            xB = fl(xB / scale);
            rescale_row(r, Q, scale);
        }
        bck.x(L, kDomXScale) = scale;
        bck.totscale = static_cast<float>(std::log(static_cast<double>(scale)));
        store_specials(bck, L, xE, xN, xJ, xB, xC);
    }

    for (uint64_t i = L - 1; i >= 1; --i) {
        const Row nxt(bck, i + 1), cur(bck, i);
        const float* rp = p.e(dsq[i], 0);  // residue i+1
        v4 tmmv = shift_down(t(0, kFMM)), timv = shift_down(t(0, kFIM)), tdmv = shift_down(t(0, kFDM));
        v4 mpv = shift_down(fl(nxt.get(0, kDomM) * ld(rp)));
        v4 xBv{};
        for (int q = Q - 1; q >= 0; --q) {
            const v4 ipv = nxt.get(q, kDomI);
            cur.set(q, kDomI, fl(fl(ipv * t(q, kFII)) + fl(mpv * timv)));
            cur.set(q, kDomD, fl(mpv * tdmv));
            const v4 mcv = fl(fl(ipv * t(q, kFMI)) + fl(mpv * tmmv));
            mpv = fl(nxt.get(q, kDomM) * ld(rp + static_cast<size_t>(q) * kFwdLanes));
            cur.set(q, kDomM, mcv);
            tdmv = t(q, kFDM);
            timv = t(q, kFIM);
            tmmv = t(q, kFMM);
            xBv = fl(xBv + fl(mpv * t(q, kFBM)));
        }
        xB = hsum(xBv);
        xC = fl(xC * odds.c_loop);
        xJ = fl(fl(xB * odds.j_move) + fl(xJ * odds.j_loop));
        xN = fl(fl(xB * odds.n_move) + fl(xN * odds.n_loop));
        xE = fl(fl(xC * odds.e_move) + fl(xJ * odds.e_loop));
        const v4 xEv = splat(xE);
        v4 dpv = shift_down(fl(cur.get(0, kDomD) + xEv)), dcv{};
        for (int q = Q - 1; q >= 0; --q) {
            dcv = fl(dpv * t(q, kFDD));
            const v4 d = fl(cur.get(q, kDomD) + fl(dcv + xEv));
            cur.set(q, kDomD, d);
            dpv = d;
            cur.set(q, kDomM, fl(cur.get(q, kDomM) + xEv));
        }
        for (int pass = 1; pass < kFwdLanes; ++pass) {
            dcv = shift_down(dcv);
            for (int q = Q - 1; q >= 0; --q) {
                dcv = fl(dcv * t(q, kFDD));
                cur.set(q, kDomD, fl(cur.get(q, kDomD) + dcv));
            }
        }
        dcv = shift_down(cur.get(0, kDomD));
        for (int q = Q - 1; q >= 0; --q) {
            cur.set(q, kDomM, fl(cur.get(q, kDomM) + fl(dcv * t(q, kFMD))));
            dcv = cur.get(q, kDomD);
        }
        if (static_cast<double>(xB) > 1.0e16) bck.has_own_scales = true;
        const float scale = bck.has_own_scales ? (xB > 1.0e4f ? xB : 1.0f) : fwd.x(i, kDomXScale);
        bck.x(i, kDomXScale) = scale;
        if (scale > 1.0f) {
            xE = fl(xE / scale);
            xN = fl(xN / scale);
            xJ = fl(xJ / scale);
            xB = fl(xB / scale);
            xC = fl(xC / scale);
            rescale_row(cur, Q, scale);
            bck.totscale = static_cast<float>(static_cast<double>(bck.totscale) + std::log(static_cast<double>(scale)));
        }
        store_specials(bck, i, xE, xN, xJ, xB, xC);
    }

    const Row one(bck, 1);
    const float* rp = p.e(dsq[0], 0);
    v4 xBv{};
    for (int q = 0; q < Q; ++q) {
        v4 mpv = fl(one.get(q, kDomM) * ld(rp + static_cast<size_t>(q) * kFwdLanes));
        mpv = fl(mpv * t(q, kFBM));
        xBv = fl(xBv + mpv);
    }
    xB = hsum(xBv);
    xN = fl(fl(xB * odds.n_move) + fl(xN * odds.n_loop));
    store_specials(bck, 0, 0.0f, xN, 0.0f, xB, 0.0f);
    bck.x(0, kDomXScale) = 1.0f;
    if (full) std::fill_n(bck.row(0), bck.row_floats(), 0.0f);
    if (range_error(xN, L)) return std::numeric_limits<float>::quiet_NaN();
    return static_cast<float>(static_cast<double>(bck.totscale) + std::log(static_cast<double>(xN)));
}

DomDecodeStatus dom_decoding_cpu(const DomSpecialOdds& odds, const DomMatrix& fwd, const DomMatrix& bck, DomMatrix& pp) {
    if (fwd.L() != bck.L() || fwd.M() != bck.M()) throw InternalError("decoding given Forward and Backward matrices of different shapes");
    if (!(fwd.full() && bck.full())) throw InternalError("posterior decoding needs full Forward and Backward matrices");
    const FlushToZero ftz;
    const uint64_t L = fwd.L();
    const int Q = fwd.Q();
    float scaleproduct = recip_dbl(bck.x(0, kDomXN));
    const bool own_scales = bck.has_own_scales;
    if (&pp != &bck) pp.reshape(fwd.M(), L, true);  // every cell is written below
    std::fill_n(pp.row(0), pp.row_floats(), 0.0f);
    for (DomSpecial s : {kDomXE, kDomXN, kDomXJ, kDomXC, kDomXB}) pp.x(0, s) = 0.0f;
    for (uint64_t i = 1; i <= L; ++i) {
        const v4 totr = splat(fl(scaleproduct * fwd.x(i, kDomXScale)));
        const float* const f = fwd.row(i);
        const float* const b = bck.row(i);
        float* const d = pp.row(i);
        for (int q = 0; q < Q; ++q) {
            st(d + at(q, kDomM), fl(fl(ld(f + at(q, kDomM)) * ld(b + at(q, kDomM))) * totr));
            st(d + at(q, kDomD), v4{});
            st(d + at(q, kDomI), fl(fl(ld(f + at(q, kDomI)) * ld(b + at(q, kDomI))) * totr));
        }
        pp.x(i, kDomXE) = 0.0f;
        pp.x(i, kDomXN) = fl(fl(fl(fwd.x(i - 1, kDomXN) * bck.x(i, kDomXN)) * odds.n_loop) * scaleproduct);
        pp.x(i, kDomXJ) = fl(fl(fl(fwd.x(i - 1, kDomXJ) * bck.x(i, kDomXJ)) * odds.j_loop) * scaleproduct);
        pp.x(i, kDomXC) = fl(fl(fl(fwd.x(i - 1, kDomXC) * bck.x(i, kDomXC)) * odds.c_loop) * scaleproduct);
        pp.x(i, kDomXB) = 0.0f;
        if (own_scales) scaleproduct = fl(scaleproduct * fl(fwd.x(i, kDomXScale) / bck.x(i, kDomXScale)));
    }
    return std::isinf(scaleproduct) ? DomDecodeStatus::overflow : DomDecodeStatus::ok;
}

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// dom_optacc.cpp's per-lane steps on whole vectors: SSE's max (a > b ? a :
// b, lane by lane), a zero transition masking its value to +0, -inf
// entering lane 0.
inline v4 vmax(v4 a, v4 b) { return a > b ? a : b; }
inline v4 gate(v4 t, v4 v) { return t > v4{} ? v : v4{}; }
inline v4 shifted_in(v4 a) { return v4{kNegInf, a[0], a[1], a[2]}; }

}  // namespace

float dom_optimal_accuracy_cpu(const FwdProfile& fp, const DomSpecialOdds& xo, const DomMatrix& pp, DomMatrix& ox) {
    const int Q = fp.Q;
    const uint64_t L = pp.L();
    if (pp.M() != fp.M || pp.Q() != Q || !pp.full())
        throw InternalError("optimal accuracy needs a full posterior matrix of the profile's shape");
    ox.reshape(fp.M, L, true);  // row 0 is set here, rows 1..L are written whole
    const v4 ninf = splat(kNegInf);
    {
        float* const r0 = ox.row(0);
        for (int q = 0; q < Q; ++q)
            for (DomCell c : {kDomM, kDomD, kDomI}) st(r0 + at(q, c), ninf);
    }
    ox.x(0, kDomXE) = kNegInf;
    ox.x(0, kDomXN) = 0.0f;
    ox.x(0, kDomXJ) = kNegInf;
    ox.x(0, kDomXB) = 0.0f;
    ox.x(0, kDomXC) = kNegInf;
    const Trans t(fp);

    for (uint64_t i = 1; i <= L; ++i) {
        const float* const prev = ox.row(i - 1);
        float* const cur = ox.row(i);
        const float* const pr = pp.row(i);
        const v4 xBv = splat(ox.x(i - 1, kDomXB));
        v4 dcv = ninf, xEv = ninf;
        v4 mpv = shifted_in(ld(prev + at(Q - 1, kDomM)));
        v4 dpv = shifted_in(ld(prev + at(Q - 1, kDomD)));
        v4 ipv = shifted_in(ld(prev + at(Q - 1, kDomI)));
        for (int q = 0; q < Q; ++q) {
            v4 sv = gate(t(q, kFBM), xBv);
            sv = vmax(sv, gate(t(q, kFMM), mpv));
            sv = vmax(sv, gate(t(q, kFIM), ipv));
            sv = vmax(sv, gate(t(q, kFDM), dpv));
            sv = sv + ld(pr + at(q, kDomM));
            xEv = vmax(xEv, sv);
            mpv = ld(prev + at(q, kDomM));
            dpv = ld(prev + at(q, kDomD));
            ipv = ld(prev + at(q, kDomI));
            st(cur + at(q, kDomM), sv);
            st(cur + at(q, kDomD), dcv);
            dcv = gate(t(q, kFMD), sv);
            st(cur + at(q, kDomI), vmax(gate(t(q, kFMI), mpv), gate(t(q, kFII), ipv)) + ld(pr + at(q, kDomI)));
        }
        dcv = shifted_in(dcv);
        for (int q = 0; q < Q; ++q) {
            const v4 d = vmax(dcv, ld(cur + at(q, kDomD)));
            st(cur + at(q, kDomD), d);
            dcv = gate(t(q, kFDD), d);
        }
        for (int pass = 1; pass < kFwdLanes; ++pass) {
            dcv = shifted_in(dcv);
            for (int q = 0; q < Q; ++q) {
                st(cur + at(q, kDomD), vmax(dcv, ld(cur + at(q, kDomD))));
                dcv = gate(t(q, kFDD), dcv);
            }
        }
        for (int q = 0; q < Q; ++q) xEv = vmax(xEv, ld(cur + at(q, kDomD)));
        const v4 a = vmax(xEv, v4{xEv[1], xEv[0], xEv[3], xEv[2]});
        const float E = a[0] > a[2] ? a[0] : a[2];  // max(max(e0, e1), max(e2, e3))
        ox.x(i, kDomXE) = E;

        float t1 = xo.j_loop == 0.0f ? 0.0f : ox.x(i - 1, kDomXJ) + pp.x(i, kDomXJ);
        float t2 = xo.e_loop == 0.0f ? 0.0f : E;
        ox.x(i, kDomXJ) = t1 > t2 ? t1 : t2;
        t1 = xo.c_loop == 0.0f ? 0.0f : ox.x(i - 1, kDomXC) + pp.x(i, kDomXC);
        t2 = xo.e_move == 0.0f ? 0.0f : E;
        ox.x(i, kDomXC) = t1 > t2 ? t1 : t2;
        ox.x(i, kDomXN) = xo.n_loop == 0.0f ? 0.0f : ox.x(i - 1, kDomXN) + pp.x(i, kDomXN);
        t1 = xo.n_move == 0.0f ? 0.0f : ox.x(i, kDomXN);
        t2 = xo.j_move == 0.0f ? 0.0f : ox.x(i, kDomXJ);
        ox.x(i, kDomXB) = t1 > t2 ? t1 : t2;
    }
    return ox.x(L, kDomXC);
}

void dom_null2_by_trace_cpu(const FwdProfile& p, const Alphabet& abc, const DomTrace& tr, int zstart, int zend,
                            std::vector<float>& null2, std::vector<float>& usage) {
    const int Q = p.Q, K = abc.K();
    // Match-slot counts per striped position, and the span [qlo, qhi] of
    // positions with any count; zero counts outside it add exact zeros
    // (§16.2, null2 by trace).
    usage.assign(static_cast<size_t>(Q) * kFwdLanes, 0.0f);
    float n = 0.0f, c = 0.0f, j = 0.0f;
    int64_t Ld = 0;
    int qlo = Q, qhi = -1, kprev = 0, q = 0, r = 0;
    {
        const FlushToZero ftz;
        for (int z = zstart; z <= zend; ++z) {
            const DomTraceStep& s = tr.steps[static_cast<size_t>(z)];
            if (s.i == 0) continue;
            ++Ld;
            if (s.k > 0) {
                if (s.k != kprev) {  // the next node without a division
                    if (kprev > 0 && s.k == kprev + 1) {
                        if (++q == Q) q = 0, ++r;
                    } else {
                        r = (s.k - 1) / Q, q = s.k - 1 - r * Q;
                    }
                    kprev = s.k;
                    qlo = std::min(qlo, q), qhi = std::max(qhi, q);
                }
                float& u = usage[static_cast<size_t>(q) * kFwdLanes + static_cast<size_t>(r)];
                u = fl(u + 1.0f);
            } else if (s.st == kStN) {
                n = fl(n + 1.0f);
            } else if (s.st == kStC) {
                c = fl(c + 1.0f);
            } else if (s.st == kStJ) {
                j = fl(j + 1.0f);
            }
        }
    }
    if (Ld == 0) {  // 1/0 makes every zero count NaN: left to the plain form
        null2 = dom_null2_by_trace(p, abc, tr, zstart, zend);
        return;
    }
    null2.resize(static_cast<size_t>(abc.Kp()));
    {
        const FlushToZero ftz;
        const float norm = recip_dbl(static_cast<float>(Ld));
        const v4 nv = splat(norm);
        float* u = usage.data();
        for (int y = qlo; y <= qhi; ++y) {
            float* uy = u + static_cast<size_t>(y) * kFwdLanes;
            st(uy, fl(ld(uy) * nv));
        }
        const float xfactor = fl(fl(fl(n * norm) + fl(c * norm)) + fl(j * norm));
        const size_t xstride = static_cast<size_t>(Q) * kFwdLanes;
        // Four residues at a time: independent sums, each in position order.
        int x = 0;
        for (; x + 4 <= K; x += 4) {
            const float* e = p.e(x, 0);
            v4 s0{}, s1{}, s2{}, s3{};
            for (int y = qlo; y <= qhi; ++y) {
                const v4 m = ld(u + static_cast<size_t>(y) * kFwdLanes);
                const float* ey = e + static_cast<size_t>(y) * kFwdLanes;
                s0 = fl(s0 + fl(m * ld(ey)));
                s1 = fl(s1 + fl(m * ld(ey + xstride)));
                s2 = fl(s2 + fl(m * ld(ey + 2 * xstride)));
                s3 = fl(s3 + fl(m * ld(ey + 3 * xstride)));
            }
            null2[static_cast<size_t>(x)] = fl(hsum(s0) + xfactor);
            null2[static_cast<size_t>(x) + 1] = fl(hsum(s1) + xfactor);
            null2[static_cast<size_t>(x) + 2] = fl(hsum(s2) + xfactor);
            null2[static_cast<size_t>(x) + 3] = fl(hsum(s3) + xfactor);
        }
        for (; x < K; ++x) {
            v4 s0{};
            for (int y = qlo; y <= qhi; ++y)
                s0 = fl(s0 + fl(ld(u + static_cast<size_t>(y) * kFwdLanes) * ld(p.e(x, y))));
            null2[static_cast<size_t>(x)] = fl(hsum(s0) + xfactor);
        }
    }
    dom_null2_non_canonical(abc, null2);
}

}  // namespace warpdp
