// A toy profile for the post-filter tests: any positive weights per node
// (no normalization needed, since a sampled path's probability is its
// weight over the sum of all), an alphabet of 4 codes, its striped
// FwdProfile, and a plain Forward in double that fills a DomMatrix as
// HMMER's does (optionally rescaling rows, to exercise the scale factors).
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_specials.hpp"
#include "core/hmmer/domains/dom_trace.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"

namespace warpdp::test {

inline constexpr int kToyK = 4;

struct ToyModel {
    int M = 0;
    // per node 1..M (index 0 unused); out-of-node weights are 0 at node M
    std::vector<double> bm, mm, mi, md, im, ii, dm, dd;
    std::vector<std::array<double, kToyK>> e;
};

template <class Rng>
ToyModel random_toy(int M, Rng& g) {
    std::uniform_real_distribution<double> u(0.05, 1.0);
    ToyModel t;
    t.M = M;
    auto fill = [&](std::vector<double>& v, bool last_too) {
        v.assign(static_cast<size_t>(M) + 1, 0.0);
        for (int k = 1; k <= M; ++k) v[static_cast<size_t>(k)] = (k < M || last_too) ? u(g) : 0.0;
    };
    fill(t.bm, true);
    fill(t.mm, false), fill(t.mi, false), fill(t.md, false), fill(t.im, false);
    fill(t.ii, false), fill(t.dm, false), fill(t.dd, false);
    t.e.assign(static_cast<size_t>(M) + 1, {});
    for (int k = 1; k <= M; ++k)
        for (auto& x : t.e[static_cast<size_t>(k)]) x = 4.0 * u(g);
    return t;
}

inline FwdProfile toy_profile(const ToyModel& t) {
    FwdProfile p;
    p.M = t.M;
    p.Q = fwd_segments(t.M);
    p.Kp = kToyK;
    const auto Q = static_cast<size_t>(p.Q);
    p.emit.assign(kToyK * Q * kFwdLanes, 0.0f);
    p.trans.assign(Q * kFwdNumTrans * kFwdLanes, 0.0f);
    for (int q = 0; q < p.Q; ++q)
        for (int z = 0; z < kFwdLanes; ++z) {
            const int k = q + 1 + z * p.Q;
            if (k > t.M) continue;
            const auto ks = static_cast<size_t>(k);
            auto set = [&](FwdTrans s, double v) {
                p.trans[(static_cast<size_t>(q) * kFwdNumTrans + static_cast<size_t>(s)) * kFwdLanes + static_cast<size_t>(z)] =
                    static_cast<float>(v);
            };
            set(kFBM, t.bm[ks]);
            set(kFMM, t.mm[ks - 1]), set(kFIM, t.im[ks - 1]), set(kFDM, t.dm[ks - 1]);
            set(kFMD, t.md[ks]), set(kFMI, t.mi[ks]), set(kFII, t.ii[ks]), set(kFDD, t.dd[ks]);
            for (int x = 0; x < kToyK; ++x)
                p.emit[(static_cast<size_t>(x) * Q + static_cast<size_t>(q)) * kFwdLanes + static_cast<size_t>(z)] =
                    static_cast<float>(t.e[ks][static_cast<size_t>(x)]);
        }
    return p;
}

// Fills a full DomMatrix; returns the total weight of all paths (unscaled).
// With rescale, every row whose E exceeds `threshold` is divided by it, the
// way HMMER's Forward does above 1e4.
inline double toy_forward(const ToyModel& t, const std::vector<int>& dsq, const DomSpecialOdds& o, DomMatrix& mx,
                          bool rescale, double threshold = 1e4) {
    const int M = t.M;
    const auto L = dsq.size();
    mx.resize(M, L, true);
    const int Q = mx.Q();
    const auto n = static_cast<size_t>(M) + 2;
    std::vector<double> Mp(n, 0), Ip(n, 0), Dp(n, 0), Mc(n, 0), Ic(n, 0), Dc(n, 0);
    double N = 1, B = o.n_move, J = 0, C = 0, logscale = 0;
    auto store = [&](uint64_t i, double E, double scale) {
        for (int k = 1; k <= M; ++k) {
            const int q = (k - 1) % Q, z = (k - 1) / Q;
            mx.cell(i, q, kDomM)[z] = static_cast<float>(Mc[static_cast<size_t>(k)]);
            mx.cell(i, q, kDomI)[z] = static_cast<float>(Ic[static_cast<size_t>(k)]);
            mx.cell(i, q, kDomD)[z] = static_cast<float>(Dc[static_cast<size_t>(k)]);
        }
        mx.x(i, kDomXE) = static_cast<float>(E);
        mx.x(i, kDomXN) = static_cast<float>(N);
        mx.x(i, kDomXJ) = static_cast<float>(J);
        mx.x(i, kDomXB) = static_cast<float>(B);
        mx.x(i, kDomXC) = static_cast<float>(C);
        mx.x(i, kDomXScale) = static_cast<float>(scale);
    };
    store(0, 0.0, 1.0);
    for (size_t i = 1; i <= L; ++i) {
        const auto x = static_cast<size_t>(dsq[i - 1]);
        double E = 0;
        for (int k = 1; k <= M; ++k) {
            const auto ks = static_cast<size_t>(k);
            Mc[ks] = t.e[ks][x] * (B * t.bm[ks] + Mp[ks - 1] * t.mm[ks - 1] + Ip[ks - 1] * t.im[ks - 1] + Dp[ks - 1] * t.dm[ks - 1]);
            Ic[ks] = Mp[ks] * t.mi[ks] + Ip[ks] * t.ii[ks];
            Dc[ks] = Mc[ks - 1] * t.md[ks - 1] + Dc[ks - 1] * t.dd[ks - 1];
            E += Mc[ks] + Dc[ks];
        }
        N = N * o.n_loop;
        C = C * o.c_loop + E * o.e_move;
        J = J * o.j_loop + E * o.e_loop;
        B = J * o.j_move + N * o.n_move;
        double scale = 1.0;
        if (rescale && E > threshold) {
            scale = E;
            for (size_t k = 1; k <= static_cast<size_t>(M); ++k) Mc[k] /= E, Ic[k] /= E, Dc[k] /= E;
            N /= E, C /= E, J /= E, B /= E;
            E = 1.0;
            logscale += std::log(scale);
        }
        store(i, E, scale);
        Mp = Mc, Ip = Ic, Dp = Dc;
    }
    return std::exp(logscale) * C * o.c_move;
}

// The weight of one path under the toy model; 0 for a path the model
// forbids (a wrong successor, a skipped or repeated residue).
inline double toy_path_weight(const ToyModel& t, const std::vector<int>& dsq, const DomSpecialOdds& o, const DomTrace& tr) {
    const auto& s = tr.steps;
    const auto L = static_cast<int64_t>(dsq.size());
    if (s.size() < 2 || s.front().st != kStS || s.back().st != kStT) return 0.0;
    double w = 1.0;
    int64_t next_i = 1;  // the residue the next emitter must emit
    auto at = [&](int k, const std::vector<double>& v) { return k >= 1 && k <= t.M ? v[static_cast<size_t>(k)] : 0.0; };
    for (size_t z = 0; z + 1 < s.size(); ++z) {
        const DomTraceStep& a = s[z];
        const DomTraceStep& b = s[z + 1];
        // emission of b
        const bool emits = b.st == kStM || b.st == kStI || ((b.st == kStN || b.st == kStC || b.st == kStJ) && a.st == b.st);
        if (emits) {
            if (b.i != next_i) return 0.0;
            ++next_i;
            if (b.st == kStM) w *= t.e[static_cast<size_t>(b.k)][static_cast<size_t>(dsq[static_cast<size_t>(b.i) - 1])];
        } else if (b.i != 0) {
            return 0.0;
        }
        double tw = 0.0;
        switch (a.st) {
        case kStS: tw = b.st == kStN ? 1.0 : 0.0; break;
        case kStN: tw = b.st == kStN ? o.n_loop : b.st == kStB ? o.n_move : 0.0; break;
        case kStB: tw = b.st == kStM ? at(b.k, t.bm) : 0.0; break;
        case kStM:
            if (b.st == kStM && b.k == a.k + 1) tw = at(a.k, t.mm);
            else if (b.st == kStI && b.k == a.k) tw = at(a.k, t.mi);
            else if (b.st == kStD && b.k == a.k + 1) tw = at(a.k, t.md);
            else if (b.st == kStE) tw = 1.0;
            break;
        case kStI:
            if (b.st == kStI && b.k == a.k) tw = at(a.k, t.ii);
            else if (b.st == kStM && b.k == a.k + 1) tw = at(a.k, t.im);
            break;
        case kStD:
            if (b.st == kStD && b.k == a.k + 1) tw = at(a.k, t.dd);
            else if (b.st == kStM && b.k == a.k + 1) tw = at(a.k, t.dm);
            else if (b.st == kStE) tw = 1.0;
            break;
        case kStE: tw = b.st == kStC ? o.e_move : b.st == kStJ ? o.e_loop : 0.0; break;
        case kStJ: tw = b.st == kStJ ? o.j_loop : b.st == kStB ? o.j_move : 0.0; break;
        case kStC: tw = b.st == kStC ? o.c_loop : b.st == kStT ? o.c_move : 0.0; break;
        default: tw = 0.0;
        }
        w *= tw;
        if (w == 0.0) return 0.0;
    }
    return next_i == L + 1 ? w : 0.0;
}

}  // namespace warpdp::test
