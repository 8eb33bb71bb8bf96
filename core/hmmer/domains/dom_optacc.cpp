// Optimal-accuracy fill and traceback (docs/hmmer-filters.md §16.5). Each
// vector operation of HMMER's SSE code is written out per lane: max is SSE's
// (a > b ? a : b), a transition that is zero masks a value to +0 in the fill
// but to -inf in the traceback, and lanes shift in -inf in the fill but 0 in
// the traceback. Those differences are HMMER's and are kept.
#include "core/hmmer/domains/dom_optacc.hpp"

#include <array>
#include <limits>

#include "core/base/errors.hpp"

namespace warpdp {

namespace {

using Lanes = std::array<float, kFwdLanes>;
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

inline float vmax(float a, float b) { return a > b ? a : b; }  // _mm_max_ps
inline float gate(float t, float v) { return t > 0.0f ? v : 0.0f; }  // cmpgt + and

Lanes load(const float* p) { return {p[0], p[1], p[2], p[3]}; }
// Lanes moved up by one, `in` entering lane 0 (esl_sse_rightshift_ps).
Lanes shifted(const float* p, float in) { return {in, p[0], p[1], p[2]}; }
Lanes shifted(const Lanes& v, float in) { return {in, v[0], v[1], v[2]}; }

}  // namespace

float dom_optimal_accuracy(const FwdProfile& fp, const DomSpecialOdds& xo, const DomMatrix& pp, DomMatrix& ox) {
    const int Q = fp.Q;
    const uint64_t L = pp.L();
    if (pp.M() != fp.M || pp.Q() != Q || !pp.full())
        throw InternalError("optimal accuracy needs a full posterior matrix of the profile's shape");
    ox.resize(fp.M, L, true);
    for (int q = 0; q < Q; ++q)
        for (DomCell s : {kDomM, kDomD, kDomI})
            for (int z = 0; z < kFwdLanes; ++z) ox.cell(0, q, s)[z] = kNegInf;
    ox.x(0, kDomXE) = kNegInf;
    ox.x(0, kDomXN) = 0.0f;
    ox.x(0, kDomXJ) = kNegInf;
    ox.x(0, kDomXB) = 0.0f;
    ox.x(0, kDomXC) = kNegInf;

    for (uint64_t i = 1; i <= L; ++i) {
        const float xB = ox.x(i - 1, kDomXB);
        Lanes dcv{kNegInf, kNegInf, kNegInf, kNegInf};
        Lanes xE = dcv;
        Lanes mpv = shifted(ox.cell(i - 1, Q - 1, kDomM), kNegInf);
        Lanes dpv = shifted(ox.cell(i - 1, Q - 1, kDomD), kNegInf);
        Lanes ipv = shifted(ox.cell(i - 1, Q - 1, kDomI), kNegInf);
        for (int q = 0; q < Q; ++q) {
            const float* ppM = pp.cell(i, q, kDomM);
            const float* ppI = pp.cell(i, q, kDomI);
            Lanes sv;
            for (int z = 0; z < kFwdLanes; ++z) {
                float s = gate(fp.t(q, kFBM)[z], xB);
                s = vmax(s, gate(fp.t(q, kFMM)[z], mpv[z]));
                s = vmax(s, gate(fp.t(q, kFIM)[z], ipv[z]));
                s = vmax(s, gate(fp.t(q, kFDM)[z], dpv[z]));
                sv[z] = s + ppM[z];
                xE[z] = vmax(xE[z], sv[z]);
            }
            mpv = load(ox.cell(i - 1, q, kDomM));
            dpv = load(ox.cell(i - 1, q, kDomD));
            ipv = load(ox.cell(i - 1, q, kDomI));
            float* M = ox.cell(i, q, kDomM);
            float* D = ox.cell(i, q, kDomD);
            float* I = ox.cell(i, q, kDomI);
            for (int z = 0; z < kFwdLanes; ++z) {
                M[z] = sv[z];
                D[z] = dcv[z];
                dcv[z] = gate(fp.t(q, kFMD)[z], sv[z]);
                I[z] = vmax(gate(fp.t(q, kFMI)[z], mpv[z]), gate(fp.t(q, kFII)[z], ipv[z])) + ppI[z];
            }
        }
        // D->D: one pass carrying each position's D, then three passes
        // carrying only what came in across the lane boundary.
        dcv = shifted(dcv, kNegInf);
        for (int q = 0; q < Q; ++q) {
            float* D = ox.cell(i, q, kDomD);
            for (int z = 0; z < kFwdLanes; ++z) {
                D[z] = vmax(dcv[z], D[z]);
                dcv[z] = gate(fp.t(q, kFDD)[z], D[z]);
            }
        }
        for (int pass = 1; pass < kFwdLanes; ++pass) {
            dcv = shifted(dcv, kNegInf);
            for (int q = 0; q < Q; ++q) {
                float* D = ox.cell(i, q, kDomD);
                for (int z = 0; z < kFwdLanes; ++z) {
                    D[z] = vmax(dcv[z], D[z]);
                    dcv[z] = gate(fp.t(q, kFDD)[z], dcv[z]);
                }
            }
        }
        for (int q = 0; q < Q; ++q)
            for (int z = 0; z < kFwdLanes; ++z) xE[z] = vmax(xE[z], ox.cell(i, q, kDomD)[z]);
        // esl_sse_hmax_ps: lanes (0,1) and (2,3) first, then the two results
        const float E = vmax(vmax(xE[0], xE[1]), vmax(xE[2], xE[3]));
        ox.x(i, kDomXE) = E;

        // A special whose transition is zero contributes 0 here, not -inf.
        float t1 = xo.j_loop == 0.0f ? 0.0f : ox.x(i - 1, kDomXJ) + pp.x(i, kDomXJ);
        float t2 = xo.e_loop == 0.0f ? 0.0f : E;
        ox.x(i, kDomXJ) = vmax(t1, t2);
        t1 = xo.c_loop == 0.0f ? 0.0f : ox.x(i - 1, kDomXC) + pp.x(i, kDomXC);
        t2 = xo.e_move == 0.0f ? 0.0f : E;
        ox.x(i, kDomXC) = vmax(t1, t2);
        ox.x(i, kDomXN) = xo.n_loop == 0.0f ? 0.0f : ox.x(i - 1, kDomXN) + pp.x(i, kDomXN);
        t1 = xo.n_move == 0.0f ? 0.0f : ox.x(i, kDomXN);
        t2 = xo.j_move == 0.0f ? 0.0f : ox.x(i, kDomXJ);
        ox.x(i, kDomXB) = vmax(t1, t2);
    }
    return ox.x(L, kDomXC);
}

namespace {

// Appends a step as p7_trace_AppendWithPP does: N, C and J keep a residue
// and its probability only when they follow themselves (the traceback sees
// the emitting copy first); non-emitting states keep none.
void append(DomTrace& tr, DomState st, int k, int64_t i, float pp) {
    DomTraceStep s;
    s.st = st;
    switch (st) {
    case kStN:
    case kStC:
    case kStJ:
        if (!tr.steps.empty() && tr.steps.back().st == st) {
            s.i = i;
            s.pp = pp;
        }
        break;
    case kStD: s.k = k; break;
    case kStM:
    case kStI:
        s.k = k;
        s.i = i;
        s.pp = pp;
        break;
    default: break;
    }
    tr.steps.push_back(s);
}

// p7_trace_Reverse: a run of N, C or J built backwards carries its residues
// one step late; they move one step back, then the order is reversed.
void reverse(DomTrace& tr) {
    auto& st = tr.steps;
    for (size_t z = 0; z + 1 < st.size(); ++z) {
        const DomState a = st[z].st;
        if ((a == kStN || a == kStC || a == kStJ) && st[z + 1].st == a && st[z].i == 0 && st[z + 1].i > 0) {
            st[z].i = st[z + 1].i;
            st[z].pp = st[z + 1].pp;
            st[z + 1].i = 0;
            st[z + 1].pp = 0.0f;
        }
    }
    for (size_t z = 0; z < st.size() / 2; ++z) std::swap(st[z], st[st.size() - 1 - z]);
}

}  // namespace

void dom_oa_trace(const FwdProfile& fp, const DomSpecialOdds& xo, const DomMatrix& pp, const DomMatrix& ox,
                  DomTrace& tr, int64_t i_offset) {
    const int M = fp.M;
    const int Q = fp.Q;
    const auto L = static_cast<int64_t>(ox.L());
    auto bad = [](const char* what) { return InternalError(std::string("optimal-accuracy traceback: ") + what); };
    auto row = [](int64_t i) { return static_cast<uint64_t>(i); };
    // Lane r of striped position q holds node k = r*Q + q + 1.
    auto at = [&](const DomMatrix& m, int64_t i, int k, DomCell s) {
        return m.cell(row(i), (k - 1) % Q, s)[(k - 1) / Q];
    };
    auto trans = [&](int k, FwdTrans s) { return fp.t((k - 1) % Q, s)[(k - 1) / Q]; };
    // Value v if transition t is possible, else -inf (the traceback's masking).
    auto via = [](float t, float v) { return t == 0.0f ? kNegInf : v; };

    // M(i,k) comes from B(i-1) or M, I, D at (i-1, k-1); ties prefer M, I, D, B.
    auto select_m = [&](int64_t i, int k) {
        // k = 1 has no node before it: lane 0 of position 0 reads 0.
        const float mp = k > 1 ? at(ox, i - 1, k - 1, kDomM) : 0.0f;
        const float ip = k > 1 ? at(ox, i - 1, k - 1, kDomI) : 0.0f;
        const float dp = k > 1 ? at(ox, i - 1, k - 1, kDomD) : 0.0f;
        const float path[4] = {via(trans(k, kFMM), mp), via(trans(k, kFIM), ip), via(trans(k, kFDM), dp),
                               via(trans(k, kFBM), ox.x(row(i - 1), kDomXB))};
        static constexpr DomState from[4] = {kStM, kStI, kStD, kStB};
        int best = 0;
        for (int n = 1; n < 4; ++n)
            if (path[n] > path[best]) best = n;
        return from[best];
    };
    // D(i,k) comes from M or D at (i, k-1); a tie goes to M.
    auto select_d = [&](int64_t i, int k) {
        const float p0 = k > 1 ? via(trans(k - 1, kFMD), at(ox, i, k - 1, kDomM)) : kNegInf;
        const float p1 = k > 1 ? via(trans(k - 1, kFDD), at(ox, i, k - 1, kDomD)) : kNegInf;
        return p0 >= p1 ? kStM : kStD;
    };
    // I(i,k) comes from M or I at (i-1, k); a tie goes to M.
    auto select_i = [&](int64_t i, int k) {
        const float p0 = via(trans(k, kFMI), at(ox, i - 1, k, kDomM));
        const float p1 = via(trans(k, kFII), at(ox, i - 1, k, kDomI));
        return p0 >= p1 ? kStM : kStI;
    };
    // C and J loop only when strictly better than coming from E.
    auto select_c = [&](int64_t i) {
        const float p0 = via(xo.c_loop, ox.x(row(i - 1), kDomXC) + pp.x(row(i), kDomXC));
        const float p1 = via(xo.e_move, ox.x(row(i), kDomXE));
        return p0 > p1 ? kStC : kStE;
    };
    auto select_j = [&](int64_t i) {
        const float p0 = via(xo.j_loop, ox.x(row(i - 1), kDomXJ) + pp.x(row(i), kDomXJ));
        const float p1 = via(xo.e_loop, ox.x(row(i), kDomXE));
        return p0 > p1 ? kStJ : kStE;
    };
    // E(i) from the best M or D in striped order (padding lanes included);
    // an M equal to the best so far replaces it, a D must exceed it.
    auto select_e = [&](int64_t i, int& k) {
        float best = kNegInf;
        DomState s = kStBogus;
        for (int q = 0; q < Q; ++q) {
            const float* Mv = ox.cell(row(i), q, kDomM);
            const float* Dv = ox.cell(row(i), q, kDomD);
            for (int r = 0; r < kFwdLanes; ++r)
                if (Mv[r] >= best) { best = Mv[r]; s = kStM; k = r * Q + q + 1; }
            for (int r = 0; r < kFwdLanes; ++r)
                if (Dv[r] > best) { best = Dv[r]; s = kStD; k = r * Q + q + 1; }
        }
        return s;
    };
    auto select_b = [&](int64_t i) {
        const float p0 = via(xo.n_move, ox.x(row(i), kDomXN));
        const float p1 = via(xo.j_move, ox.x(row(i), kDomXJ));
        return p0 > p1 ? kStN : kStJ;
    };
    // What the step records: M and I their cell's probability, N, C and J
    // theirs when they follow themselves, everything else 0.
    auto postprob = [&](DomState cur, DomState prev, int k, int64_t i) {
        switch (cur) {
        case kStM: return at(pp, i, k, kDomM);
        case kStI: return at(pp, i, k, kDomI);
        case kStN: return prev == cur ? pp.x(row(i), kDomXN) : 0.0f;
        case kStC: return prev == cur ? pp.x(row(i), kDomXC) : 0.0f;
        case kStJ: return prev == cur ? pp.x(row(i), kDomXJ) : 0.0f;
        default: return 0.0f;
        }
    };

    tr.clear();
    int64_t i = L;
    int k = 0;
    append(tr, kStT, 0, i, 0.0f);
    append(tr, kStC, 0, i, 0.0f);
    DomState s0 = kStC;
    while (s0 != kStS) {
        DomState s1 = kStBogus;
        // Every choice below reads row i-1 or node k-1 only where the path
        // can still go there; a matrix that says otherwise is not HMMER's.
        switch (s0) {
        case kStM:
            if (i < 1 || k < 1) throw bad("M state outside the matrix");
            s1 = select_m(i, k);
            --k;
            --i;
            break;
        case kStD:
            if (k < 2) throw bad("D state with no node before it");
            s1 = select_d(i, k);
            --k;
            break;
        case kStI:
            if (i < 1 || k < 1) throw bad("I state outside the matrix");
            s1 = select_i(i, k);
            --i;
            break;
        case kStN: s1 = i == 0 ? kStS : kStN; break;
        case kStC:
            if (i < 1) throw bad("C state reached row 0");
            s1 = select_c(i);
            break;
        case kStJ:
            if (i < 1) throw bad("J state reached row 0");
            s1 = select_j(i);
            break;
        case kStE:
            s1 = select_e(i, k);
            if (s1 == kStBogus || k > M) throw bad("E state's best cell lies beyond the model");
            break;
        case kStB: s1 = select_b(i); break;
        default: throw bad("bogus state");
        }
        append(tr, s1, k, i, postprob(s1, s0, k, i));
        if ((s1 == kStN || s1 == kStJ || s1 == kStC) && s1 == s0) --i;
        s0 = s1;
    }
    reverse(tr);
    tr.M = M;
    tr.L = L;
    if (i_offset != 0)
        for (auto& s : tr.steps)
            if (s.i > 0) s.i += i_offset;
}

}  // namespace warpdp
