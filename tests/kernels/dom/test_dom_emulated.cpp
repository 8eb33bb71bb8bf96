// The CUDA post-filter kernels' code (kernels/dom/dom_kernels.cuh, four
// threads a job; kernels/dom/dom_warp_kernel.cuh, a warp a job) run on the
// host, so that machines without a GPU check their steps, their order of
// operations and their layout: a std::thread for each GPU thread, shuffles
// and votes meeting at a barrier of the warp, and the float arithmetic the
// scalar references' (results flushed by hand) in place of the PTX
// instructions. The batch comes from dom_layout_batch (and the warp form's
// launches from dom_warp_launches) and the scores from dom_finish, as in the
// engine; the arena and the shared memory start full of NaN, so a value read
// before it is written shows. Batches of one model, and batches mixing
// several models' jobs (each read through its model's descriptor), models
// wide enough for every warp-form launch shape. Everything is compared with
// the CPU forms bit for bit, as tests/kernels/dom/test_dom_cuda.cpp does on
// a GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <atomic>
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

// ---- what the kernels take from CUDA, for one warp of host threads (four
// for dom_kernel's group, 32 for dom_warp_kernel's warp)
namespace emu {
// A barrier of the warp's threads that yields a few times before it sleeps:
// with many more host threads than cores the last one to arrive usually
// comes within a few yields, and sleeping at once costs a futex round trip
// each time; yielding for ever would starve other processes.
class Meet {
public:
    explicit Meet(int n) : n_(n) {}
    void arrive_and_wait() {
        const unsigned gen = gen_.load(std::memory_order_acquire);
        if (count_.fetch_add(1, std::memory_order_acq_rel) + 1 == n_) {
            count_.store(0, std::memory_order_relaxed);
            gen_.fetch_add(1, std::memory_order_release);
            gen_.notify_all();
            return;
        }
        for (int k = 0; k < 8; ++k) {
            if (gen_.load(std::memory_order_acquire) != gen) return;
            std::this_thread::yield();
        }
        for (unsigned g = gen; g == gen; g = gen_.load(std::memory_order_acquire)) gen_.wait(gen, std::memory_order_acquire);
    }

private:
    int n_;
    std::atomic<int> count_{0};
    std::atomic<unsigned> gen_{0};
};
struct Warp {
    explicit Warp(int n) : threads(n), meet(n) {}
    int threads;
    Meet meet;
    float f[32] = {};
    bool b[32] = {};
};
thread_local Warp* warp = nullptr;
thread_local int lane = 0;
struct Index {
    unsigned x = 0;
};
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
inline float __double2float_rn(double d) { return static_cast<float>(d); }
inline float exchange(float v, int from) {
    emu::Warp& w = *emu::warp;
    w.f[emu::lane] = v;
    w.meet.arrive_and_wait();
    const float r = w.f[from];
    w.meet.arrive_and_wait();
    return r;
}
// Shuffles within segments of `width` lanes, as CUDA's.
inline float __shfl_sync(unsigned, float v, int src, int width = 32) {
    return exchange(v, (emu::lane & ~(width - 1)) + (src & (width - 1)));
}
inline float __shfl_up_sync(unsigned, float v, unsigned d, int width = 32) {
    const int in = emu::lane & (width - 1);
    return exchange(v, in >= static_cast<int>(d) ? emu::lane - static_cast<int>(d) : emu::lane);
}
inline float __shfl_down_sync(unsigned, float v, unsigned d, int width = 32) {
    const int in = emu::lane & (width - 1);
    return exchange(v, in + static_cast<int>(d) < width ? emu::lane + static_cast<int>(d) : emu::lane);
}
inline float __shfl_xor_sync(unsigned, float v, int m, int width = 32) {
    return exchange(v, (emu::lane & ~(width - 1)) + ((emu::lane ^ m) & (width - 1)));
}
inline bool __any_sync(unsigned, bool pred) {
    emu::Warp& w = *emu::warp;
    w.b[emu::lane] = pred;
    w.meet.arrive_and_wait();
    bool any = false;
    for (int k = 0; k < w.threads; ++k) any = any || w.b[k];
    w.meet.arrive_and_wait();
    return any;
}
inline void __syncwarp(unsigned) { emu::warp->meet.arrive_and_wait(); }

namespace warpdp {
// A block's dynamic shared memory (the warp form's bound).
float dom_warp_smem[48 << 8];
}  // namespace warpdp

#include "kernels/dom/dom_kernels.cuh"
#include "kernels/dom/dom_warp_kernel.cuh"

using namespace warpdp;
using namespace warpdp::test;

namespace {

// n host threads running f(thread index) as one warp.
template <class F>
void run_warp(int n, F f) {
    emu::Warp w(n);
    std::vector<std::thread> threads;
    for (int k = 0; k < n; ++k)
        threads.emplace_back([&, k] {
            emu::warp = &w;
            emu::lane = k;
            f(k);
        });
    for (auto& th : threads) th.join();
}

// The kernels over a batch of jobs, one group of four threads (or one
// warp) at a time; the warp form's launches as the engine plans them, each
// warp's shared memory full of NaN first.
void run_kernel(std::span<const FwdProfile* const> models, DomBatch b, DomCudaForm form, std::vector<float>& arena,
                std::vector<uint32_t>& flags) {
    const auto n = static_cast<uint32_t>(b.desc.size());
    arena.assign(b.arena_floats, std::numeric_limits<float>::quiet_NaN());
    flags.assign(n, 0xDEADu);
    std::vector<float> emit, trans;
    std::vector<DomModelDesc> table;
    dom_model_tables(models, emit, trans, table);
    std::vector<int> Q;
    for (const FwdProfile* fp : models) Q.push_back(fp->Q);
    std::vector<DomWarpLaunch> launches{{0, n, 0, 0}};
    if (form == DomCudaForm::warp) launches = dom_warp_launches(b.order, b.desc, Q);
    for (const DomWarpLaunch& l : launches) {
        DomParams p{emit.data(), trans.data(), table.data(), b.res.data(), b.desc.data(), b.order.data() + l.first,
                    l.count, arena.data(), flags.data()};
        for (uint32_t g = 0; g < l.count; ++g) {
            if (l.warps == 0) {
                run_warp(4, [&](int z) {
                    threadIdx.x = static_cast<unsigned>(z);
                    blockIdx.x = g;
                    blockDim.x = 4;
                    dom_kernel(p);
                });
                continue;
            }
            REQUIRE(size_t{l.warps} * l.region <= std::size(dom_warp_smem));
            std::fill(std::begin(dom_warp_smem), std::end(dom_warp_smem), std::numeric_limits<float>::quiet_NaN());
            run_warp(32, [&](int t) {
                threadIdx.x = (g % l.warps) * 32 + static_cast<unsigned>(t);
                blockIdx.x = g / l.warps;
                blockDim.x = 32 * l.warps;
                dom_warp_kernel(p, l.region);
            });
        }
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
void compare_emulated(std::span<const FwdProfile* const> models, const std::vector<DomCudaJob>& jobs, DomCudaForm form,
                      Tally& t) {
    const std::vector<Want> want = cpu_results(models, jobs);
    std::vector<int> Q;
    for (const FwdProfile* fp : models) Q.push_back(fp->Q);
    DomBatch b;
    dom_layout_batch(jobs, Q, b);
    std::vector<float> arena;
    std::vector<uint32_t> flags;
    run_kernel(models, b, form, arena, flags);
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

void compare_emulated(const FwdProfile& fp, const std::vector<DomCudaJob>& jobs, DomCudaForm form, Tally& t) {
    const FwdProfile* const one[1] = {&fp};
    compare_emulated(one, jobs, form, t);
}

}  // namespace

constexpr DomCudaForm kForms[] = {DomCudaForm::lanes4, DomCudaForm::warp};
const char* form_name(DomCudaForm f) { return f == DomCudaForm::warp ? "warp a job" : "four threads a job"; }

TEST_CASE("the post-filter kernels' code, run on the host, equals the CPU forms bit for bit") {
    seed();
    for (DomCudaForm form : kForms) {
        Tally t;
        // (the warp form's 32 host threads a job cost more: fewer, shorter
        // targets, the stripe shapes still all there)
        const bool warp = form == DomCudaForm::warp;
        for (int M : {1, 3, 4, 5, 9, 14, 57, 100, 101, 150}) {
            if (warp && (M == 3 || M == 4 || M == 9 || M == 100)) continue;
            const Hmm h = random_vit_hmm(M, frand(5.0f, 40.0f));
            const FwdProfile fp = build_fwd_profile(build_profile(h));
            auto targets = fwd_targets_for(h, 1, warp ? 30 : 120);
            auto two = sample_homolog(h, 10);
            const auto second = sample_homolog(h, 10);
            two.insert(two.end(), second.begin(), second.end());
            if (!two.empty()) targets.push_back(std::move(two));
            compare_emulated(fp, mixed_jobs(targets), form, t);
        }
        for (uint64_t s : {0u, 7u}) {  // Backward on its own scale factors; seed 7: decoding overflows
            const OwnScaleCase c = own_scale_case(s);
            const std::span<const uint8_t> dsq(c.dsq);
            std::vector<DomCudaJob> jobs;
            for (bool multihit : {false, true})
                for (bool full : {false, true}) jobs.push_back({dsq, dom_special_odds(dsq.size(), multihit), full});
            compare_emulated(build_fwd_profile(c.prof), jobs, form, t);
        }
        MESSAGE(std::string(form_name(form)) << ": " << t.jobs << " jobs (" << t.full << " full, " << t.cells << " cells), " << t.nan
                                << " with a NaN score, " << t.own << " Backwards on own scales, " << t.overflow
                                << " overflows, " << t.bad << " mismatches");
        CHECK(t.bad == 0);
        CHECK(t.full > 0);
        CHECK(t.nan > 0);
        CHECK(t.own > 0);
        CHECK(t.overflow > 0);
    }
}

TEST_CASE("the post-filter kernels' code, run on the host, takes jobs of several models in one batch") {
    seed();
    // sizes on both sides of M = 100 (its D->D early exit) and of one stripe
    const std::vector<std::vector<int>> sets = {{uniform(1, 5), uniform(101, 140)},
                                                {uniform(101, 140), uniform(1, 5), uniform(20, 60)},
                                                {3, 100, 4}};
    for (DomCudaForm form : kForms) {
        Tally t;
        for (const auto& sizes : sets) {
            const ModelSet s = model_set(sizes, 120);
            // (the warp form: every fourth job, the models still mixed)
            std::vector<DomCudaJob> jobs;
            for (size_t j = 0; j < s.jobs.size(); ++j)
                if (form == DomCudaForm::lanes4 || j % 4 == 0) jobs.push_back(s.jobs[j]);
            compare_emulated(s.ptrs, jobs, form, t);
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
        MESSAGE(std::string(form_name(form)) << ": " << t.jobs << " jobs (" << t.full << " full, " << t.cells << " cells), " << t.nan
                                << " with a NaN score, " << t.own << " Backwards on own scales, " << t.bad
                                << " mismatches");
        CHECK(t.bad == 0);
        CHECK(t.full > 0);
    }
}

TEST_CASE("the warp form gives wide models fewer warps a block, the widest four threads a job, all exact") {
    seed();
    // Widths for four, two and one warps a block, and one too wide for a
    // block's shared memory (four threads a job).
    const int sizes[] = {uniform(20, 60), uniform(780, 900), uniform(1560, 1700), uniform(3120, 3300)};
    std::vector<FwdProfile> fps;
    std::vector<std::vector<uint8_t>> seqs;
    std::vector<DomCudaJob> jobs;
    for (int M : sizes) fps.push_back(build_fwd_profile(build_profile(random_vit_hmm(M, frand(5.0f, 40.0f)))));
    for (size_t m = 0; m < fps.size(); ++m)
        for (int k = 0; k < 2; ++k) seqs.push_back(random_vit_codes(static_cast<size_t>(uniform(15, 40))));
    std::vector<const FwdProfile*> ptrs;
    std::vector<int> Q;
    for (size_t m = 0; m < fps.size(); ++m) {
        ptrs.push_back(&fps[m]);
        Q.push_back(fps[m].Q);
        for (int k = 0; k < 2; ++k) {
            const std::span<const uint8_t> dsq(seqs[m * 2 + static_cast<size_t>(k)]);
            jobs.push_back({dsq, dom_special_odds(dsq.size(), k == 0), k == 1, static_cast<uint32_t>(m)});
        }
    }
    DomBatch b;
    dom_layout_batch(jobs, Q, b);
    const std::vector<DomWarpLaunch> launches = dom_warp_launches(b.order, b.desc, Q);
    REQUIRE(launches.size() == 4);
    for (size_t l = 0; l < 4; ++l) {
        CHECK(launches[l].warps == std::array{4u, 2u, 1u, 0u}[l]);
        CHECK(launches[l].count == 2);
        for (uint32_t g = launches[l].first; g < launches[l].first + launches[l].count; ++g)
            CHECK(b.desc[b.order[g]].model == l);
        if (launches[l].warps) CHECK(launches[l].warps * launches[l].region * sizeof(float) <= kDomWarpSmemBytes);
    }
    Tally t;
    compare_emulated(ptrs, jobs, DomCudaForm::warp, t);
    MESSAGE(t.jobs << " jobs (" << t.full << " full, " << t.cells << " cells), " << t.bad << " mismatches");
    CHECK(t.bad == 0);
}
