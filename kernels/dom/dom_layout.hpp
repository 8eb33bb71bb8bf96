// What the CUDA post-filter kernel and its host share (docs/hmmer-filters.md
// §16.8), in plain C++: a batch's layout in device memory, and the scores
// and matrices the host finishes from what the kernel leaves. Header-only,
// so tests/kernels/dom/test_dom_emulated.cpp runs the kernel's code on the
// host, four std::threads a job, with the same layout and the same finish.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <algorithm>
#include <span>
#include <vector>

#include "kernels/dom/dom_cuda.hpp"

namespace warpdp {

// One job of a batch, offsets in floats into the batch's arena:
// spec_off: Forward specials (L + 1) x 6, then Backward specials (L + 1) x 6.
// mat_off, full job: Forward cells (L + 1) x R plus (L + 1) x 6 unused, then
//   Backward cells (L + 1) x R, decoded in place into the posteriors, plus
//   the posterior specials (L + 1) x 6 (R = Q * 12): two matrices in
//   DomMatrix's layout.
// mat_off, parser job: two rows of R, rows i and i-1 of either pass.
struct DomJobDesc {
    uint64_t res_off, L, spec_off, mat_off;
    float n_loop, n_move, e_loop, e_move, c_loop, c_move, j_loop, j_move;
    uint32_t full, model;  // model: index into DomParams::models
};

// One model of a launch: its FwdProfile::emit and ::trans at these float
// offsets into the launch's emit and trans buffers, and its shape.
struct DomModelDesc {
    uint64_t emit, trans;
    int32_t M, Q;
};

// Every model's odds in one emit and one trans buffer, with their table.
// Models left null (none of a launch's jobs use them) get no odds.
inline void dom_model_tables(std::span<const FwdProfile* const> models, std::vector<float>& emit,
                             std::vector<float>& trans, std::vector<DomModelDesc>& desc) {
    emit.clear();
    trans.clear();
    desc.assign(models.size(), DomModelDesc{});
    for (size_t m = 0; m < models.size(); ++m) {
        if (!models[m]) continue;
        const FwdProfile& fp = *models[m];
        desc[m] = DomModelDesc{emit.size(), trans.size(), fp.M, fp.Q};
        emit.insert(emit.end(), fp.emit.begin(), fp.emit.end());
        trans.insert(trans.end(), fp.trans.begin(), fp.trans.end());
    }
}

// A job's result flags.
inline constexpr uint32_t kDomFlagOwnScales = 1;  // Backward took its own scale factors
inline constexpr uint32_t kDomFlagOverflow = 2;   // decoding's scale product became infinite

struct DomParams {
    const float* emit;           // every model's FwdProfile::emit
    const float* trans;          // every model's FwdProfile::trans
    const DomModelDesc* models;  // where each model's are, and its M and Q
    const uint8_t* res;
    const DomJobDesc* jobs;
    const uint32_t* order;  // group g runs job order[g]
    uint32_t n;
    float* arena;
    uint32_t* flags;  // per job
};

inline uint64_t dom_row_floats(int Q) { return static_cast<uint64_t>(Q) * kDomCells * kFwdLanes; }
inline uint64_t dom_specials_floats(uint64_t L) { return 2 * (L + 1) * kDomSpecials; }
inline uint64_t dom_matrices_floats(int Q, uint64_t L, bool full) {
    return full ? 2 * (L + 1) * (dom_row_floats(Q) + kDomSpecials) : 2 * dom_row_floats(Q);
}
// Device bytes of one job (of a model of Q stripe positions): arena,
// residues, descriptor, order and flags.
inline uint64_t dom_job_bytes(int Q, uint64_t L, bool full) {
    return (dom_specials_floats(L) + dom_matrices_floats(Q, L, full)) * sizeof(float) + L + sizeof(DomJobDesc) +
           2 * sizeof(uint32_t);
}

// A job's estimated time, for the order of the kernel's groups: rows times
// a row's cost, which grows with Q as the Forward filter's cost model has
// it (fwd_split.hpp: 5.5 + 0.065 Q us a row, so Q + 85 up to a factor).
inline double dom_job_cost(int Q, uint64_t L) { return static_cast<double>(L) * (Q + 85); }

// A batch as the kernel reads it: the specials of all jobs first, in job
// order (one copy brings them back), then the matrices; the kernel's groups
// take the jobs costliest first (dom_job_cost), so those of a warp run
// similar times, however their models differ.
struct DomBatch {
    std::vector<DomJobDesc> desc;
    std::vector<uint8_t> res;
    std::vector<uint32_t> order;
    uint64_t specials_floats = 0;
    uint64_t arena_floats = 0;
};

// Q[m]: the stripe positions of model m, for the jobs of that model.
inline void dom_layout_batch(std::span<const DomCudaJob> jobs, std::span<const int> Q, DomBatch& b) {
    b.desc.resize(jobs.size());
    b.res.clear();
    b.specials_floats = 0;
    for (const DomCudaJob& j : jobs) b.specials_floats += dom_specials_floats(j.dsq.size());
    uint64_t spec = 0, mat = b.specials_floats;
    for (size_t k = 0; k < jobs.size(); ++k) {
        const DomCudaJob& in = jobs[k];
        DomJobDesc& d = b.desc[k];
        d = DomJobDesc{};
        d.res_off = b.res.size();
        b.res.insert(b.res.end(), in.dsq.begin(), in.dsq.end());
        d.L = in.dsq.size();
        d.spec_off = spec;
        spec += dom_specials_floats(d.L);
        d.mat_off = mat;
        mat += dom_matrices_floats(Q[in.model], d.L, in.full);
        d.n_loop = in.odds.n_loop;
        d.n_move = in.odds.n_move;
        d.e_loop = in.odds.e_loop;
        d.e_move = in.odds.e_move;
        d.c_loop = in.odds.c_loop;
        d.c_move = in.odds.c_move;
        d.j_loop = in.odds.j_loop;
        d.j_move = in.odds.j_move;
        d.full = in.full ? 1 : 0;
        d.model = in.model;
    }
    b.arena_floats = mat;
    std::vector<double> cost(jobs.size());
    for (size_t k = 0; k < jobs.size(); ++k) cost[k] = dom_job_cost(Q[jobs[k].model], b.desc[k].L);
    b.order.resize(jobs.size());
    std::iota(b.order.begin(), b.order.end(), 0u);
    std::stable_sort(b.order.begin(), b.order.end(), [&](uint32_t x, uint32_t y) { return cost[x] > cost[y]; });
}

// The totscale of the CPU forms, from a matrix's scale column, in the
// order each pass rescaled its rows.
inline float dom_forward_totscale(const float* fx, uint64_t L) {
    float tot = 0.0f;
    for (uint64_t i = 1; i <= L; ++i)
        if (const float s = fx[i * kDomSpecials + kDomXScale]; s > 1.0f)
            tot = static_cast<float>(static_cast<double>(tot) + std::log(static_cast<double>(s)));
    return tot;
}
inline float dom_backward_totscale(const float* bx, uint64_t L) {
    float tot = static_cast<float>(std::log(static_cast<double>(bx[L * kDomSpecials + kDomXScale])));
    for (uint64_t i = L - 1; i >= 1; --i)
        if (const float s = bx[i * kDomSpecials + kDomXScale]; s > 1.0f)
            tot = static_cast<float>(static_cast<double>(tot) + std::log(static_cast<double>(s)));
    return tot;
}

// The scores as dom_forward_cpu and dom_backward_cpu finish them (glibc's
// logarithms; dom_fwdback.cpp's range errors give NaN). fx: the job's
// Forward specials, followed by its Backward specials.
inline DomCudaResult dom_finish(const DomSpecialOdds& odds, uint64_t L, const float* fx, uint32_t flags) {
    const auto range_error = [L](float v) {
        return std::isnan(v) || (L > 0 && v == 0.0f) || v == std::numeric_limits<float>::infinity();
    };
    const float* const bx = fx + (L + 1) * kDomSpecials;
    DomCudaResult r;
    const float xC = fx[L * kDomSpecials + kDomXC];
    r.fwd_score = range_error(xC) ? std::numeric_limits<float>::quiet_NaN()
                                  : static_cast<float>(static_cast<double>(dom_forward_totscale(fx, L)) +
                                                       std::log(static_cast<double>(flush_denormal(xC * odds.c_move))));
    const float xN = bx[kDomXN];
    r.bck_score = range_error(xN) ? std::numeric_limits<float>::quiet_NaN()
                                  : static_cast<float>(static_cast<double>(dom_backward_totscale(bx, L)) +
                                                       std::log(static_cast<double>(xN)));
    r.decoding = (flags & kDomFlagOverflow) ? DomDecodeStatus::overflow : DomDecodeStatus::ok;
    return r;
}

inline void dom_fill_specials(DomMatrix& mx, const float* x) {
    for (uint64_t i = 0; i <= mx.L(); ++i)
        for (int s = 0; s < kDomSpecials; ++s)
            mx.x(i, static_cast<DomSpecial>(s)) = x[i * kDomSpecials + static_cast<uint64_t>(s)];
}

// Parser matrices holding a job's specials as the CPU forms leave them.
inline void dom_specials_matrices(int M, uint64_t L, const float* fx, uint32_t flags, DomMatrix& fwd, DomMatrix& bck) {
    const float* const bx = fx + (L + 1) * kDomSpecials;
    fwd.reshape(M, L, false);
    dom_fill_specials(fwd, fx);
    fwd.totscale = dom_forward_totscale(fx, L);
    fwd.has_own_scales = true;
    bck.reshape(M, L, false);
    dom_fill_specials(bck, bx);
    bck.totscale = dom_backward_totscale(bx, L);
    bck.has_own_scales = (flags & kDomFlagOwnScales) != 0;
}

}  // namespace warpdp
