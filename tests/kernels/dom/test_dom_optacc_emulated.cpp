// The warp form of the CUDA optimal-accuracy fill
// (kernels/dom/dom_optacc_warp_kernel.cuh) run on the host, so that machines
// without a GPU check its steps, its order of operations and its layout: 32
// std::threads a warp, __syncwarp a barrier of the warp's 32, shared memory
// a host array (NaN before each block, so a value read before it is written
// shows), and the float arithmetic plain C++ (IEEE, no contraction). Its OA
// matrices, every cell and special, and its scores are compared with
// dom_optimal_accuracy_cpu bit for bit on fresh random inputs: posteriors
// decoded on the CPU and made up (ties, closed transitions), models of every
// stripe shape on both sides of M = 100 up to the widest the warp form
// takes, one to four warps a block, and launches mixing several models.
#include <doctest/doctest.h>

#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdio>
#include <limits>
#include <math.h>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/hmmer/domains/dom_cpu.hpp"
#include "dom_oa_inputs_support.hpp"
#include "kernels/dom/dom_layout.hpp"

// ---- what dom_optacc_warp_kernel.cuh takes from CUDA, for a block of host threads
namespace emu {
struct Index {
    unsigned x = 0;
};
thread_local std::barrier<>* warp_meet = nullptr;
}  // namespace emu

#define __device__
#define __host__
#define __forceinline__ inline
#define __global__
#define __shared__
#define __launch_bounds__(n)

thread_local emu::Index threadIdx, blockIdx, blockDim;

template <class T>
T __ldg(const T* p) {
    return *p;
}
inline void __syncwarp(unsigned) { emu::warp_meet->arrive_and_wait(); }

namespace warpdp {
// A block's dynamic shared memory (the CUDA engine's bound: 48 KiB).
constexpr size_t kEmuSmemFloats = (48 << 10) / sizeof(float);
float dom_oa_warp_smem[kEmuSmemFloats];
}  // namespace warpdp

#include "kernels/dom/dom_optacc_warp_kernel.cuh"

using namespace warpdp;
using namespace warpdp::test;

namespace {

// One envelope of a launch: its model and posteriors.
struct Env {
    uint32_t model;
    const DomMatrix* pp;
    DomSpecialOdds odds;
};

struct Launch {
    std::vector<float> ox_cells, ox_specials, oasc;
    std::vector<DomOaJob> jobs;
};

// The warp fill over `envs` (W warps a block, jobs taken in reverse order
// through `which`), the posteriors at scattered offsets of one buffer with
// NaN between them, as the CUDA engine's scatter hook places them.
Launch run_warp_fill(std::span<const FwdProfile* const> models, const std::vector<Env>& envs, unsigned W) {
    const size_t n = envs.size();
    std::vector<float> emit, trans;
    std::vector<DomModelDesc> table;
    dom_model_tables(models, emit, trans, table);
    constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> pp;
    Launch out;
    out.jobs.resize(n);
    uint64_t ox_c = 0, ox_s = 0;
    int widest = 1;
    for (size_t j = 0; j < n; ++j) {
        const DomMatrix& m = *envs[j].pp;
        DomOaJob& job = out.jobs[j];
        pp.insert(pp.end(), 1 + j % 5, kNaN);
        job.pp_specials = pp.size();
        for (uint64_t i = 0; i <= m.L(); ++i)
            for (int s = 0; s < kDomSpecials; ++s) pp.push_back(m.x(i, static_cast<DomSpecial>(s)));
        pp.insert(pp.end(), 3, kNaN);
        job.pp_cells = pp.size();
        pp.insert(pp.end(), m.row(0), m.row(0) + (m.L() + 1) * m.row_floats());
        job.L = m.L();
        job.odds = envs[j].odds;
        job.model = envs[j].model;
        job.ox_cells = ox_c;
        job.ox_specials = ox_s;
        ox_c += (m.L() + 1) * m.row_floats();
        ox_s += (m.L() + 1) * kDomSpecials;
        widest = std::max(widest, m.Q());
    }
    out.ox_cells.assign(ox_c, kNaN);
    out.ox_specials.assign(ox_s, kNaN);
    out.oasc.assign(n, kNaN);
    DomOaParams p{};
    p.pp_cells = pp.data();
    p.pp_specials = pp.data();
    p.jobs = out.jobs.data();
    p.n = static_cast<uint32_t>(n);
    p.trans = trans.data();
    p.emit = emit.data();
    p.models = table.data();
    p.ox_cells = out.ox_cells.data();
    p.ox_specials = out.ox_specials.data();
    p.oasc = out.oasc.data();
    std::vector<uint32_t> which(n);
    for (size_t j = 0; j < n; ++j) which[j] = static_cast<uint32_t>(n - 1 - j);
    const uint32_t region = dom_oa_warp_region_floats(dom_oa_warp_Pp(widest));
    REQUIRE(uint64_t{region} * W <= kEmuSmemFloats);
    const auto blocks = static_cast<unsigned>((n + W - 1) / W);
    for (unsigned blk = 0; blk < blocks; ++blk) {
        std::fill(std::begin(dom_oa_warp_smem), std::end(dom_oa_warp_smem), kNaN);
        std::vector<std::unique_ptr<std::barrier<>>> meets;
        for (unsigned w = 0; w < W; ++w) meets.push_back(std::make_unique<std::barrier<>>(32));
        std::vector<std::thread> threads;
        for (unsigned x = 0; x < 32 * W; ++x)
            threads.emplace_back([&, x] {
                emu::warp_meet = meets[x / 32].get();
                threadIdx.x = x;
                blockIdx.x = blk;
                blockDim.x = 32 * W;
                dom_oa_fill_warp_kernel(p, which.data(), static_cast<uint32_t>(n), region);
            });
        for (auto& th : threads) th.join();
    }
    return out;
}

// The first cell or special of job j's OA matrix that differs from the
// CPU's, or "".
std::string ox_diff(const Launch& r, size_t j, const DomMatrix& want) {
    return oa_matrix_diff(r.ox_cells.data() + r.jobs[j].ox_cells, r.ox_specials.data() + r.jobs[j].ox_specials, want);
}

struct Tally {
    long envelopes = 0, cells = 0, bad_oasc = 0, bad_ox = 0;
};

// The batches' envelopes in one launch (each batch's of its own model),
// against dom_optimal_accuracy_cpu.
void check(const std::vector<const Batch*>& batches, unsigned W, Tally& t) {
    std::vector<const FwdProfile*> models;
    std::vector<Env> envs;
    std::vector<const Batch*> of;
    for (uint32_t m = 0; m < batches.size(); ++m) {
        models.push_back(&batches[m]->fp);
        for (size_t k = 0; k < batches[m]->pp.size(); ++k) {
            envs.push_back({m, &batches[m]->pp[k], batches[m]->odds[k]});
            of.push_back(batches[m]);
        }
    }
    std::vector<size_t> order(envs.size());
    for (size_t e = 0; e < order.size(); ++e) order[e] = e;
    std::shuffle(order.begin(), order.end(), rng());
    std::vector<Env> shuffled;
    for (size_t e : order) shuffled.push_back(envs[e]);
    const Launch r = run_warp_fill(models, shuffled, W);
    for (size_t j = 0; j < shuffled.size(); ++j) {
        const Env& e = shuffled[j];
        const FwdProfile& fp = *models[e.model];
        DomMatrix ox;
        const float want = dom_optimal_accuracy_cpu(fp, e.odds, *e.pp, ox);
        ++t.envelopes;
        t.cells += static_cast<long>((e.pp->L() + 1) * e.pp->row_floats());
        auto report = [&](long& bad, const std::string& msg) {
            if (++bad <= 8) MESSAGE("MISMATCH W=" << W << " M=" << fp.M << " L=" << e.pp->L() << ": " << msg);
        };
        if (!same_score(r.oasc[j], want)) report(t.bad_oasc, "oasc got " + num(r.oasc[j]) + " want " + num(want));
        const std::string d = ox_diff(r, j, ox);
        if (!d.empty()) report(t.bad_ox, "OA matrix " + d);
    }
}

void check_each(const std::vector<Batch>& batches, unsigned W, Tally& t) {
    for (const Batch& b : batches) check({&b}, W, t);
}

void finish(const Tally& t) {
    MESSAGE(t.envelopes << " envelopes (" << t.cells << " cells); mismatches: oasc " << t.bad_oasc << ", OA matrix "
                        << t.bad_ox);
    CHECK(t.envelopes > 0);
    CHECK(t.bad_oasc == 0);
    CHECK(t.bad_ox == 0);
}

}  // namespace

TEST_CASE("the warp optimal-accuracy fill, run on the host, equals the CPU's on decoded posteriors") {
    seed();
    Tally t;
    std::vector<Batch> batches;
    for (int M : {1, 2, 3, 4, 5, 8, 9, 13, 31, 33, 57, 99, 100, 101, 180, 260, 513}) {
        Batch b;
        add_decoded(b, M, M > 200 ? 3 : 5, M > 200 ? 120 : 300);
        batches.push_back(std::move(b));
    }
    check_each(batches, 1, t);
    check_each(batches, 3, t);
    finish(t);
}

TEST_CASE("the warp optimal-accuracy fill, run on the host, equals the CPU's on made-up posteriors") {
    seed();
    Tally t;
    std::vector<Batch> batches;
    for (int M : {1, 2, 3, 4, 5, 8, 9, 13, 57, 99, 100, 101, 180}) {
        Batch b;
        add_made_up(b, M, 6);
        batches.push_back(std::move(b));
    }
    check_each(batches, 2, t);
    finish(t);
}

TEST_CASE("the warp optimal-accuracy fill, run on the host, takes several models in one launch") {
    seed();
    Tally t;
    std::vector<Batch> batches;
    for (int M : {uniform(1, 5), uniform(101, 260), uniform(6, 99), 100}) {
        Batch b;
        add_decoded(b, M, 3, 200);
        batches.push_back(std::move(b));
    }
    for (int M : {uniform(1, 5), uniform(101, 180)}) {
        Batch b;
        add_made_up(b, M, 4);
        batches.push_back(std::move(b));
    }
    std::vector<const Batch*> all;
    for (const Batch& b : batches) all.push_back(&b);
    for (unsigned W : {1u, 4u}) check(all, W, t);
    finish(t);
}

TEST_CASE("the warp optimal-accuracy fill, run on the host, on the widest models it takes") {
    seed();
    Tally t;
    // M = 2,500 (Q = 625) and the widest Q whose warp fits the CUDA engine's
    // 48 KiB a block
    int widest = 2;
    while (uint64_t{dom_oa_warp_region_floats(dom_oa_warp_Pp(widest + 1))} * sizeof(float) <= (48u << 10)) ++widest;
    MESSAGE("widest Q of the warp form: " << widest);
    std::vector<Batch> batches;
    for (int M : {2500, 4 * widest}) {
        Batch b;
        add_made_up(b, M, 2);
        for (DomMatrix& m : b.pp)  // short envelopes: the emulation is slow
            if (m.L() > 24) m = random_posteriors(M, static_cast<uint64_t>(uniform(1, 24)), true);
        batches.push_back(std::move(b));
    }
    check_each(batches, 1, t);
    finish(t);
}

TEST_CASE("the warp optimal-accuracy fill, run on the host, keeps the CPU's NaNs, signed zeros and negative values") {
    seed();
    Tally t;
    // Posteriors no decoding leaves: made-up ones less 0.5, some -0 or
    // NaN, where the order of SSE's max decides which of two equal or
    // unordered values survives (the block summaries must reproduce it),
    // and where -inf and +0 carries differ; on models with single
    // transitions closed at random.
    std::vector<Batch> batches;
    for (int M : {1, 4, 9, 13, 57, 101, 180}) {
        Batch b;
        add_made_up(b, M, 6);
        // and transitions closed one at a time (M->D without D->D, ...)
        for (float& x : b.fp.trans)
            if (uniform(0, 9) == 0) x = 0.0f;
        for (DomMatrix& m : b.pp)
            for (uint64_t i = 1; i <= m.L(); ++i)
                for (int q = 0; q < m.Q(); ++q)
                    for (DomCell c : {kDomM, kDomI})
                        for (int z = 0; z < kFwdLanes; ++z) {
                            const int r = uniform(0, 199);
                            if (r == 0) m.cell(i, q, c)[z] = std::numeric_limits<float>::quiet_NaN();
                            else if (r < 40) m.cell(i, q, c)[z] = -0.0f;
                            else m.cell(i, q, c)[z] -= 0.5f;
                        }
        for (DomMatrix& m : b.pp)
            for (uint64_t i = 1; i <= m.L(); ++i)
                for (DomSpecial x : {kDomXN, kDomXJ, kDomXC})
                    m.x(i, x) -= 0.5f;
        batches.push_back(std::move(b));
    }
    check_each(batches, 2, t);
    finish(t);
}
