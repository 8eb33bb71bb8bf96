// The optimal-accuracy kernels (docs/hmmer-filters.md §16.9), each envelope
// on its own model's odds and shape (DomModelDesc): the fill with four
// threads per envelope, thread z playing SSE lane z of
// dom_optimal_accuracy_cpu (its warp form: dom_optacc_warp_kernel.cuh); the
// traceback with one thread per envelope, the choices of dom_oa_trace in its
// order; null2 by expectation with a block per
// envelope, each column summed over the rows in dom_null2's order. Float
// operations are explicit PTX: IEEE without flushing in the fill and the
// traceback (the CPU's run outside any flush-to-zero scope), IEEE then a
// flush of denormal results in null2 (dom_lanes.hpp's add and mul).
#pragma once

#include <cstdint>

#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_specials.hpp"
#include "core/hmmer/domains/dom_trace.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"
#include "kernels/dom/dom_optacc_device.cuh"

namespace warpdp {

// The fill of jobs which[0..count) (every job where which is null).
__global__ void __launch_bounds__(128) dom_oa_fill_kernel(DomOaParams p, const uint32_t* which, uint32_t count) {
    using namespace dom_oa_device;
    const uint64_t tid = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const uint64_t gi = tid / 4;
    const int z = static_cast<int>(tid % 4);
    if (gi >= count) return;  // whole groups of four leave together
    const uint64_t g = which ? which[gi] : gi;
    const unsigned group = 0xFu << (threadIdx.x & 28u);
    const DomOaJob job = p.jobs[g];
    const DomModelDesc md = p.models[job.model];
    const int Q = md.Q;
    const uint64_t rf = static_cast<uint64_t>(Q) * kRow;
    const float* const ppc = p.pp_cells + job.pp_cells + z;
    const float* const pps = p.pp_specials + job.pp_specials;
    float* const oc = p.ox_cells + job.ox_cells + z;
    float* const os = p.ox_specials + job.ox_specials;
    const float* const tz = p.trans + md.trans + z;  // slot s of position q: tz[(q * 8 + s) * 4]
    auto tr = [tz](int q, int s) { return __ldg(tz + (q * kFwdNumTrans + s) * kFwdLanes); };
    // Lane z takes lane z-1's value, -inf entering lane 0.
    auto shift_in = [group, z](float v) {
        const float u = __shfl_up_sync(group, v, 1, 4);
        return z == 0 ? kNegInf : u;
    };
    const DomSpecialOdds xo = job.odds;

    for (int q = 0; q < Q; ++q)
        for (int s = 0; s < kDomCells; ++s) oc[q * kRow + s * kFwdLanes] = kNegInf;
    DomOaSpecials sp;
    sp.start(z == 0 ? os : nullptr);
    for (uint64_t i = 1; i <= job.L; ++i) {
        const float* const prev = oc + (i - 1) * rf;
        float* const cur = oc + i * rf;
        const float* const pr = ppc + i * rf;
        float dcv = kNegInf, xE = kNegInf;
        const int last = (Q - 1) * kRow;
        float mpv = shift_in(prev[last + kDomM * kFwdLanes]);
        float dpv = shift_in(prev[last + kDomD * kFwdLanes]);
        float ipv = shift_in(prev[last + kDomI * kFwdLanes]);
        for (int q = 0; q < Q; ++q) {
            const int c = q * kRow;
            float sv = gate(tr(q, kFBM), sp.xB);
            sv = vmax(sv, gate(tr(q, kFMM), mpv));
            sv = vmax(sv, gate(tr(q, kFIM), ipv));
            sv = vmax(sv, gate(tr(q, kFDM), dpv));
            sv = add_ieee(sv, pr[c + kDomM * kFwdLanes]);
            xE = vmax(xE, sv);
            mpv = prev[c + kDomM * kFwdLanes];
            dpv = prev[c + kDomD * kFwdLanes];
            ipv = prev[c + kDomI * kFwdLanes];
            cur[c + kDomM * kFwdLanes] = sv;
            cur[c + kDomD * kFwdLanes] = dcv;
            dcv = gate(tr(q, kFMD), sv);
            cur[c + kDomI * kFwdLanes] =
                add_ieee(vmax(gate(tr(q, kFMI), mpv), gate(tr(q, kFII), ipv)), pr[c + kDomI * kFwdLanes]);
        }
        // D->D: a pass carrying each position's D, then three carrying only
        // what crossed the lane boundary; all four always run, as in the CPU's.
        dcv = shift_in(dcv);
        for (int q = 0; q < Q; ++q) {
            float* const d = cur + q * kRow + kDomD * kFwdLanes;
            const float v = vmax(dcv, *d);
            *d = v;
            dcv = gate(tr(q, kFDD), v);
        }
        for (int pass = 1; pass < kFwdLanes; ++pass) {
            dcv = shift_in(dcv);
            for (int q = 0; q < Q; ++q) {
                float* const d = cur + q * kRow + kDomD * kFwdLanes;
                *d = vmax(dcv, *d);
                dcv = gate(tr(q, kFDD), dcv);
            }
        }
        for (int q = 0; q < Q; ++q) xE = vmax(xE, cur[q * kRow + kDomD * kFwdLanes]);
        // max(max(e0, e1), max(e2, e3)), the same expression on every lane
        const float e0 = __shfl_sync(group, xE, 0, 4), e1 = __shfl_sync(group, xE, 1, 4);
        const float e2 = __shfl_sync(group, xE, 2, 4), e3 = __shfl_sync(group, xE, 3, 4);
        const float E = vmax(vmax(e0, e1), vmax(e2, e3));

        sp.row(xo, pps + i * kDomSpecials, E, z == 0 ? os + i * kDomSpecials : nullptr);
    }
    if (z == 0) p.oasc[g] = sp.xC;
}

// dom_oa_trace's choices, one thread per envelope, over the filled OA matrix.
__global__ void __launch_bounds__(128) dom_oa_trace_kernel(DomOaParams p) {
    using namespace dom_oa_device;
    const uint64_t g = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (g >= p.n) return;
    const DomOaJob job = p.jobs[g];
    const DomModelDesc md = p.models[job.model];
    const int M = md.M, Q = md.Q;
    const float* const tp = p.trans + md.trans;
    const uint64_t rf = static_cast<uint64_t>(Q) * kRow;
    const float* const ppc = p.pp_cells + job.pp_cells;
    const float* const pps = p.pp_specials + job.pp_specials;
    const float* const oc = p.ox_cells + job.ox_cells;
    const float* const os = p.ox_specials + job.ox_specials;
    const DomSpecialOdds xo = job.odds;
    // Lane r of striped position q holds node k = r*Q + q + 1.
    auto at = [rf, Q](const float* m, int64_t i, int k, int s) {
        return m[static_cast<uint64_t>(i) * rf + ((k - 1) % Q) * kRow + s * kFwdLanes + (k - 1) / Q];
    };
    auto X = [](const float* m, int64_t i, int s) { return m[static_cast<uint64_t>(i) * kDomSpecials + s]; };
    auto trans = [tp, Q](int k, int s) {
        return __ldg(tp + (((k - 1) % Q) * kFwdNumTrans + s) * kFwdLanes + (k - 1) / Q);
    };
    auto via = [](float t, float v) { return t == 0.0f ? kNegInf : v; };

    uint64_t count = 0;
    uint32_t* const out = p.steps + job.step_off;
    float* const out_pp = p.step_pp + job.step_off;
    auto put = [&](DomState st, int k, float pp) {
        if (count < job.step_cap) {
            out[count] = static_cast<uint32_t>(st) | (static_cast<uint32_t>(k) << 4);
            out_pp[count] = pp;
        }
        ++count;
    };
    auto fail = [&](DomOaTraceError e) {
        p.error[g] = e;
        p.nsteps[g] = 0;
    };

    int64_t i = static_cast<int64_t>(job.L);
    int k = 0;
    put(kStT, 0, 0.0f);
    put(kStC, 0, 0.0f);
    DomState s0 = kStC;
    while (s0 != kStS) {
        DomState s1 = kStBogus;
        switch (s0) {
        case kStM: {
            if (i < 1 || k < 1) return fail(kOaBadM);
            // ties prefer M, I, D, B; k = 1 reads 0 for the node before it
            const float mp = k > 1 ? at(oc, i - 1, k - 1, kDomM) : 0.0f;
            const float ip = k > 1 ? at(oc, i - 1, k - 1, kDomI) : 0.0f;
            const float dp = k > 1 ? at(oc, i - 1, k - 1, kDomD) : 0.0f;
            const float path[4] = {via(trans(k, kFMM), mp), via(trans(k, kFIM), ip), via(trans(k, kFDM), dp),
                                   via(trans(k, kFBM), X(os, i - 1, kDomXB))};
            const DomState from[4] = {kStM, kStI, kStD, kStB};
            int best = 0;
            for (int n = 1; n < 4; ++n)
                if (path[n] > path[best]) best = n;
            s1 = from[best];
            --k;
            --i;
            break;
        }
        case kStD: {
            if (k < 2) return fail(kOaBadD);
            const float p0 = via(trans(k - 1, kFMD), at(oc, i, k - 1, kDomM));
            const float p1 = via(trans(k - 1, kFDD), at(oc, i, k - 1, kDomD));
            s1 = p0 >= p1 ? kStM : kStD;
            --k;
            break;
        }
        case kStI: {
            if (i < 1 || k < 1) return fail(kOaBadI);
            const float p0 = via(trans(k, kFMI), at(oc, i - 1, k, kDomM));
            const float p1 = via(trans(k, kFII), at(oc, i - 1, k, kDomI));
            s1 = p0 >= p1 ? kStM : kStI;
            --i;
            break;
        }
        case kStN: s1 = i == 0 ? kStS : kStN; break;
        case kStC: {
            if (i < 1) return fail(kOaBadC);
            const float p0 = via(xo.c_loop, add_ieee(X(os, i - 1, kDomXC), X(pps, i, kDomXC)));
            const float p1 = via(xo.e_move, X(os, i, kDomXE));
            s1 = p0 > p1 ? kStC : kStE;
            break;
        }
        case kStJ: {
            if (i < 1) return fail(kOaBadJ);
            const float p0 = via(xo.j_loop, add_ieee(X(os, i - 1, kDomXJ), X(pps, i, kDomXJ)));
            const float p1 = via(xo.e_loop, X(os, i, kDomXE));
            s1 = p0 > p1 ? kStJ : kStE;
            break;
        }
        case kStE: {
            // the best M or D in striped order, padding lanes included; an M
            // equal to the best so far replaces it, a D must exceed it
            float best = kNegInf;
            const float* const row = oc + static_cast<uint64_t>(i) * rf;
            for (int q = 0; q < Q; ++q) {
                for (int r = 0; r < kFwdLanes; ++r) {
                    const float v = row[q * kRow + kDomM * kFwdLanes + r];
                    if (v >= best) { best = v; s1 = kStM; k = r * Q + q + 1; }
                }
                for (int r = 0; r < kFwdLanes; ++r) {
                    const float v = row[q * kRow + kDomD * kFwdLanes + r];
                    if (v > best) { best = v; s1 = kStD; k = r * Q + q + 1; }
                }
            }
            if (s1 == kStBogus || k > M) return fail(kOaBadE);
            break;
        }
        case kStB: {
            const float p0 = via(xo.n_move, X(os, i, kDomXN));
            const float p1 = via(xo.j_move, X(os, i, kDomXJ));
            s1 = p0 > p1 ? kStN : kStJ;
            break;
        }
        default: return fail(kOaBogus);
        }
        float pp = 0.0f;
        switch (s1) {
        case kStM: pp = at(ppc, i, k, kDomM); break;
        case kStI: pp = at(ppc, i, k, kDomI); break;
        case kStN: pp = s0 == s1 ? X(pps, i, kDomXN) : 0.0f; break;
        case kStC: pp = s0 == s1 ? X(pps, i, kDomXC) : 0.0f; break;
        case kStJ: pp = s0 == s1 ? X(pps, i, kDomXJ) : 0.0f; break;
        default: break;
        }
        put(s1, k, pp);
        if ((s1 == kStN || s1 == kStJ || s1 == kStC) && s1 == s0) --i;
        s0 = s1;
    }
    p.error[g] = kOaOk;
    p.nsteps[g] = count;
}

// null2 by expectation, a block per envelope: first the mean posterior of
// every M and I column and of N, C, J (rows summed in order, as
// dom_null2_by_expectation adds row i onto rows 1..i-1); then per canonical
// code x and lane z the sum over positions q, each lane's sums in q order;
// then the horizontal sum of each code's lanes plus N + C + J.
__global__ void __launch_bounds__(128) dom_oa_null2_kernel(DomOaParams p) {
    using namespace dom_oa_device;
    extern __shared__ float lane_sums[];  // [K][4]
    const uint64_t g = blockIdx.x;
    if (g >= p.n) return;
    const DomOaJob job = p.jobs[g];
    const DomModelDesc md = p.models[job.model];
    const int Q = md.Q, K = p.K;
    const uint64_t rf = static_cast<uint64_t>(Q) * kRow;
    const float* const ppc = p.pp_cells + job.pp_cells;
    const float* const pps = p.pp_specials + job.pp_specials;
    float* const u = p.usage + job.usage;  // [q][M lanes, I lanes], then N, C, J
    const uint64_t L = job.L;
    // HMMER's 1.0 / Ld, in double, stored in a float.
    const float norm = flush(__double2float_rn(1.0 / static_cast<double>(static_cast<float>(static_cast<int64_t>(L)))));
    const int ncols = Q * 8 + 3;
    for (int c = static_cast<int>(threadIdx.x); c < ncols; c += static_cast<int>(blockDim.x)) {
        float sum;
        if (c < Q * 8) {
            const int q = c / 8, r = c % 8;
            const int off = q * kRow + (r < 4 ? kDomM : kDomI) * kFwdLanes + r % 4;
            sum = ppc[rf + off];
            for (uint64_t i = 2; i <= L; ++i) sum = add_fl(ppc[i * rf + off], sum);
        } else {
            const int s = c == Q * 8 ? kDomXN : c == Q * 8 + 1 ? kDomXC : kDomXJ;
            sum = pps[kDomSpecials + s];
            for (uint64_t i = 2; i <= L; ++i) sum = add_fl(sum, pps[i * kDomSpecials + s]);
        }
        u[c] = mul_fl(sum, norm);
    }
    __syncthreads();
    for (int t = static_cast<int>(threadIdx.x); t < K * 4; t += static_cast<int>(blockDim.x)) {
        const int x = t / 4, z = t % 4;
        const float* const ex = p.emit + md.emit + static_cast<uint64_t>(x) * Q * kFwdLanes + z;
        float sv = 0.0f;
        for (int q = 0; q < Q; ++q) {
            sv = add_fl(sv, mul_fl(u[q * 8 + z], __ldg(ex + q * kFwdLanes)));
            sv = add_fl(sv, u[q * 8 + 4 + z]);
        }
        lane_sums[t] = sv;
    }
    __syncthreads();
    const float xfactor = add_fl(add_fl(u[Q * 8], u[Q * 8 + 1]), u[Q * 8 + 2]);
    for (int x = static_cast<int>(threadIdx.x); x < K; x += static_cast<int>(blockDim.x)) {
        const float* const s = lane_sums + x * 4;
        p.null2[g * static_cast<uint64_t>(K) + x] = add_fl(add_fl(add_fl(s[0], s[1]), add_fl(s[2], s[3])), xfactor);
    }
}

}  // namespace warpdp
