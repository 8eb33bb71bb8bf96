// The CUDA post-filter kernel's code (kernels/dom/dom_kernels.cuh) run on
// the host, so that machines without a GPU check its steps, its order of
// operations and its layout: four std::threads a job stand in for the four
// lanes, shuffles and votes meet at a barrier, and the float arithmetic is
// the scalar references' (results flushed by hand) in place of the PTX
// instructions. The batch comes from dom_layout_batch and the scores from
// dom_finish, as in the engine; the arena starts full of NaN, so a value read
// before it is written shows. Batches of one model, and batches mixing
// several models' jobs (each read through its model's descriptor).
// Everything is compared with the CPU forms bit for bit, as
// tests/kernels/dom/test_dom_cuda.cpp does on a GPU.
#include <doctest/doctest.h>

#include <barrier>
#include <cmath>
#include <cstring>
#include <limits>
#include <math.h>
#include <thread>
#include <vector>

#include "core/hmmer/profile.hpp"
#include "dom_cuda_test_support.hpp"
#include "dom_models_support.hpp"
#include "kernels/dom/dom_layout.hpp"

// ---- what dom_kernels.cuh takes from CUDA, for one group of four host threads
namespace emu {
struct Group {
    std::barrier<> meet{4};
    float f[4] = {};
    bool b[4] = {};
};
thread_local Group* group = nullptr;
thread_local int lane = 0;
struct Index {
    unsigned x = 0;
};
}  // namespace emu

#define __device__
#define __forceinline__ inline
#define __global__
#define __launch_bounds__(n)

thread_local emu::Index threadIdx, blockIdx;
constexpr emu::Index blockDim{4};

template <class T>
T __ldg(const T* p) {
    return *p;
}
inline float __double2float_rn(double d) { return static_cast<float>(d); }
inline float exchange(float v, int from) {
    emu::Group& g = *emu::group;
    g.f[emu::lane] = v;
    g.meet.arrive_and_wait();
    const float r = g.f[from];
    g.meet.arrive_and_wait();
    return r;
}
inline float __shfl_up_sync(unsigned, float v, unsigned d, int) {
    return exchange(v, emu::lane >= static_cast<int>(d) ? emu::lane - static_cast<int>(d) : emu::lane);
}
inline float __shfl_down_sync(unsigned, float v, unsigned d, int w) {
    return exchange(v, emu::lane + static_cast<int>(d) < w ? emu::lane + static_cast<int>(d) : emu::lane);
}
inline float __shfl_xor_sync(unsigned, float v, int m, int) { return exchange(v, emu::lane ^ m); }
inline bool __any_sync(unsigned, bool pred) {
    emu::Group& g = *emu::group;
    g.b[emu::lane] = pred;
    g.meet.arrive_and_wait();
    const bool any = g.b[0] || g.b[1] || g.b[2] || g.b[3];
    g.meet.arrive_and_wait();
    return any;
}
inline void __syncwarp(unsigned) { emu::group->meet.arrive_and_wait(); }

#include "kernels/dom/dom_kernels.cuh"

using namespace warpdp;
using namespace warpdp::test;

namespace {

// The kernel over a batch of jobs, one group of four threads at a time.
void run_kernel(std::span<const FwdProfile* const> models, const DomBatch& b, std::vector<float>& arena,
                std::vector<uint32_t>& flags) {
    const auto n = static_cast<uint32_t>(b.desc.size());
    arena.assign(b.arena_floats, std::numeric_limits<float>::quiet_NaN());
    flags.assign(n, 0xDEADu);
    std::vector<float> emit, trans;
    std::vector<DomModelDesc> table;
    dom_model_tables(models, emit, trans, table);
    const DomParams p{emit.data(), trans.data(), table.data(), b.res.data(), b.desc.data(), b.order.data(), n,
                      arena.data(), flags.data()};
    for (uint32_t g = 0; g < n; ++g) {
        emu::Group grp;
        std::vector<std::thread> lanes;
        for (int z = 0; z < 4; ++z)
            lanes.emplace_back([&, z] {
                emu::group = &grp;
                emu::lane = z;
                threadIdx.x = static_cast<unsigned>(z);
                blockIdx.x = g;
                dom_kernel(p);
            });
        for (auto& th : lanes) th.join();
    }
}

DomMatrix full_matrix(int M, uint64_t L, const float* cells, const float* specials) {
    DomMatrix m;
    m.reshape(M, L, true);
    std::memcpy(m.row(0), cells, (L + 1) * m.row_floats() * sizeof(float));
    dom_fill_specials(m, specials);
    return m;
}

// Jobs of models[job.model] in one batch.
void compare_emulated(std::span<const FwdProfile* const> models, const std::vector<DomCudaJob>& jobs, Tally& t) {
    const std::vector<Want> want = cpu_results(models, jobs);
    std::vector<int> Q;
    for (const FwdProfile* fp : models) Q.push_back(fp->Q);
    DomBatch b;
    dom_layout_batch(jobs, Q, b);
    std::vector<float> arena;
    std::vector<uint32_t> flags;
    run_kernel(models, b, arena, flags);
    for (size_t j = 0; j < jobs.size(); ++j) {
        const FwdProfile& fp = *models[jobs[j].model];
        const DomJobDesc& d = b.desc[j];
        const float* const fx = arena.data() + d.spec_off;
        DomMatrix f, bx;
        dom_specials_matrices(fp.M, d.L, fx, flags[j], f, bx);
        const std::string name = job_name(fp, jobs, j);
        compare_job(name, want[j], dom_finish(jobs[j].odds, d.L, fx, flags[j]), f, bx, t);
        if (!jobs[j].full) continue;
        const uint64_t block = (d.L + 1) * (dom_row_floats(fp.Q) + kDomSpecials);
        DomMatrix fm = full_matrix(fp.M, d.L, arena.data() + d.mat_off, fx);
        fm.totscale = f.totscale;
        const float* const pc = arena.data() + d.mat_off + block;
        DomMatrix pp = full_matrix(fp.M, d.L, pc, pc + (d.L + 1) * dom_row_floats(fp.Q));
        pp.totscale = bx.totscale;
        pp.has_own_scales = bx.has_own_scales;
        compare_full(name, want[j], fm, pp, t);
    }
}

void compare_emulated(const FwdProfile& fp, const std::vector<DomCudaJob>& jobs, Tally& t) {
    const FwdProfile* const one[1] = {&fp};
    compare_emulated(one, jobs, t);
}

}  // namespace

TEST_CASE("the post-filter kernel's code, run on the host, equals the CPU forms bit for bit") {
    seed();
    Tally t;
    for (int M : {1, 3, 4, 5, 9, 14, 57, 100, 101, 150}) {
        const Hmm h = random_vit_hmm(M, frand(5.0f, 40.0f));
        const FwdProfile fp = build_fwd_profile(build_profile(h));
        auto targets = fwd_targets_for(h, 1, 120);
        auto two = sample_homolog(h, 10);
        const auto second = sample_homolog(h, 10);
        two.insert(two.end(), second.begin(), second.end());
        if (!two.empty()) targets.push_back(std::move(two));
        compare_emulated(fp, mixed_jobs(targets), t);
    }
    for (uint64_t s : {0u, 7u}) {  // Backward on its own scale factors; seed 7: decoding overflows
        const OwnScaleCase c = own_scale_case(s);
        const std::span<const uint8_t> dsq(c.dsq);
        std::vector<DomCudaJob> jobs;
        for (bool multihit : {false, true})
            for (bool full : {false, true}) jobs.push_back({dsq, dom_special_odds(dsq.size(), multihit), full});
        compare_emulated(build_fwd_profile(c.prof), jobs, t);
    }
    MESSAGE(t.jobs << " jobs (" << t.full << " full, " << t.cells << " cells), " << t.nan << " with a NaN score, "
                   << t.own << " Backwards on own scales, " << t.overflow << " overflows, " << t.bad << " mismatches");
    CHECK(t.bad == 0);
    CHECK(t.full > 0);
    CHECK(t.nan > 0);
    CHECK(t.own > 0);
    CHECK(t.overflow > 0);
}

TEST_CASE("the post-filter kernel's code, run on the host, takes jobs of several models in one batch") {
    seed();
    Tally t;
    // sizes on both sides of M = 100 (its D->D early exit) and of one stripe
    const std::vector<std::vector<int>> sets = {{uniform(1, 5), uniform(101, 140)},
                                                {uniform(101, 140), uniform(1, 5), uniform(20, 60)},
                                                {3, 100, 4}};
    for (const auto& sizes : sets) {
        const ModelSet s = model_set(sizes, 120);
        compare_emulated(s.ptrs, s.jobs, t);
        // the groups take the jobs costliest first, each by its own model's row cost
        std::vector<int> Q;
        for (const FwdProfile* fp : s.ptrs) Q.push_back(fp->Q);
        DomBatch b;
        dom_layout_batch(s.jobs, Q, b);
        for (size_t g = 1; g < b.order.size(); ++g) {
            const DomCudaJob& x = s.jobs[b.order[g - 1]];
            const DomCudaJob& y = s.jobs[b.order[g]];
            CHECK(dom_job_cost(Q[x.model], x.dsq.size()) >= dom_job_cost(Q[y.model], y.dsq.size()));
        }
    }
    MESSAGE(t.jobs << " jobs (" << t.full << " full, " << t.cells << " cells), " << t.nan << " with a NaN score, "
                   << t.own << " Backwards on own scales, " << t.bad << " mismatches");
    CHECK(t.bad == 0);
    CHECK(t.full > 0);
}
