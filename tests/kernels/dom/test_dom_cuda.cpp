// The CUDA post-filter Forward, Backward and decoding (kernels/dom/dom_cuda.hpp)
// against the CPU forms (dom_cpu.hpp), bit for bit (NaN for NaN): every
// score, every special and scale factor of both matrices, totscale and the
// Backward's own-scales switch, and for full jobs every Forward cell, every
// posterior cell and special and the decoding status. Fresh random models
// each run (the seed is printed) over many stripe shapes on both sides of
// M = 100, random, homologous and two-domain targets, parser jobs mixed with
// envelope (unihit) and region (multihit) jobs on pieces of them, the case
// where Backward takes its own scale factors and decoding overflows, calls
// cut into many batches, and calls mixing several models' jobs (one batch
// or many, models wide enough for every launch shape of the warp form).
// Every case runs on both kernels (four threads a job, a warp a job). A
// mismatch names the first differing job, row and cell. Skips (77) without
// a GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/profile.hpp"
#include "cuda_test_support.hpp"
#include "dom_cuda_test_support.hpp"
#include "dom_models_support.hpp"
#include "kernels/dom/dom_cuda.hpp"
#include "kernels/dom/dom_layout.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

// The resident full jobs [first, first + n) against the CPU's matrices;
// job j of model models[jobs[j].model].
void check_matrices(const DomCudaEngine& eng, std::span<const FwdProfile* const> models,
                    const std::vector<DomCudaJob>& jobs, const std::vector<Want>& want, size_t first, size_t n,
                    Tally& t) {
    for (size_t j = first; j < first + n; ++j) {
        if (!jobs[j].full) continue;
        const FwdProfile& fp = *models[jobs[j].model];
        const DomDeviceMatrix pm = eng.posterior(j), fm = eng.forward(j);
        if (pm.cells != eng.arena() + pm.offset || pm.specials != pm.cells + (pm.L + 1) * pm.row_floats() ||
            fm.offset + fm.floats() != pm.offset || pm.L != jobs[j].dsq.size() || pm.Q != fp.Q || pm.M != fp.M ||
            fm.Q != fp.Q || fm.M != fp.M)
            t.fail(job_name(fp, jobs, j) + ": device matrix views not in DomMatrix's layout");
        DomMatrix f, pp;
        eng.copy_forward(j, f);
        eng.copy_posterior(j, pp);
        compare_full(job_name(fp, jobs, j), want[j], f, pp, t);
    }
}

// Runs the jobs (of models[job.model]) on the engine and compares
// everything with the CPU forms; returns where each batch began.
std::vector<size_t> compare(DomCudaEngine& eng, std::span<const FwdProfile* const> models,
                            const std::vector<DomCudaJob>& jobs, Tally& t) {
    const std::vector<Want> want = cpu_results(models, jobs);
    std::vector<DomCudaResult> got(jobs.size());
    eng.set_models(models);
    size_t next = 0;
    std::vector<size_t> starts;
    eng.run(jobs, got, [&](size_t first, size_t n) {
        if (first != next || n == 0) t.fail("batches not in order: " + std::to_string(first) + "+" + std::to_string(n));
        next = first + n;
        ++t.batches;
        starts.push_back(first);
        check_matrices(eng, models, jobs, want, first, n, t);
    });
    if (next != jobs.size()) t.fail("batches ended at job " + std::to_string(next));
    for (size_t j = 0; j < jobs.size(); ++j) {
        DomMatrix f, b;
        eng.specials(j, f, b);
        compare_job(job_name(*models[jobs[j].model], jobs, j), want[j], got[j], f, b, t);
    }
    return starts;
}

std::vector<size_t> compare(DomCudaEngine& eng, const FwdProfile& fp, const std::vector<DomCudaJob>& jobs, Tally& t) {
    const FwdProfile* const one[1] = {&fp};
    return compare(eng, one, jobs, t);
}

constexpr DomCudaForm kForms[] = {DomCudaForm::lanes4, DomCudaForm::warp};
const char* form_name(DomCudaForm f) { return f == DomCudaForm::warp ? "warp a job" : "four threads a job"; }

}  // namespace

TEST_CASE("CUDA post-filter Forward, Backward and decoding == the CPU forms, bit for bit") {
    require_gpu();
    seed();
    for (DomCudaForm form : kForms) {
        auto eng = make_dom_cuda_engine(0, 0, form);
        Tally t;
        for (int M : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 33, 34, 35, 36, 57, 99, 100, 101, 102, 103, 180, 260, 513}) {
            for (int rep = 0; rep < 2; ++rep) {
                const Hmm h = random_vit_hmm(M, rep ? 1.0f : frand(5.0f, 40.0f));
                const FwdProfile fp = build_fwd_profile(build_profile(h));
                const auto targets = targets_for(h, M > 200 ? 400 : 900);
                compare(*eng, fp, mixed_jobs(targets), t);
            }
        }
        MESSAGE(std::string(form_name(form)) << ": " << t.jobs << " jobs (" << t.full << " full, " << t.cells << " cells), " << t.nan
                                << " with a NaN score, " << t.own << " Backwards on own scales, " << t.bad
                                << " mismatches");
        CHECK(t.bad == 0);
        CHECK(t.full > 0);
        CHECK(t.nan > 0);  // targets of only -inf codes
    }
}

TEST_CASE("CUDA post-filter: a Backward on its own scale factors, and a decoding that overflows") {
    require_gpu();
    for (DomCudaForm form : kForms) {
        auto eng = make_dom_cuda_engine(0, 0, form);
        Tally t;
        for (uint64_t s = 0; s <= 7; ++s) {
            const OwnScaleCase c = own_scale_case(s);
            const FwdProfile fp = build_fwd_profile(c.prof);
            const std::span<const uint8_t> dsq(c.dsq);
            std::vector<DomCudaJob> jobs;
            for (bool multihit : {false, true})
                for (bool full : {false, true}) jobs.push_back({dsq, dom_special_odds(dsq.size(), multihit), full});
            compare(*eng, fp, jobs, t);
        }
        INFO(form_name(form));
        CHECK(t.bad == 0);
        CHECK(t.own > 0);
        CHECK(t.overflow > 0);
    }
}

TEST_CASE("CUDA post-filter: a call cut into many batches by the memory budget") {
    require_gpu();
    seed();
    Tally t;
    for (DomCudaForm form : kForms)
    for (int M : {7, 64, 101}) {
        const Hmm h = random_vit_hmm(M, frand(5.0f, 40.0f));
        const FwdProfile fp = build_fwd_profile(build_profile(h));
        const auto targets = targets_for(h, 600);
        const auto jobs = mixed_jobs(targets);
        // a budget of a quarter of the call (never below its largest job): several batches
        uint64_t total = 0, largest = 0;
        for (const DomCudaJob& j : jobs) {
            const uint64_t b = dom_job_bytes(fp.Q, j.dsq.size(), j.full);
            total += b;
            largest = std::max(largest, b);
        }
        auto eng = make_dom_cuda_engine(0, std::max(largest, total / 4), form);
        const std::vector<size_t> starts = compare(*eng, fp, jobs, t);
        CHECK(starts.size() > 1);
        // after the call, the last batch's matrices are on the device, no earlier one's
        for (size_t j = 0; j < jobs.size(); ++j) {
            if (!jobs[j].full) continue;
            if (j < starts.back()) CHECK_THROWS_AS(static_cast<void>(eng->posterior(j)), InternalError);
            else CHECK_NOTHROW(static_cast<void>(eng->posterior(j)));
        }
    }
    CHECK(t.bad == 0);
    // a job larger than the whole budget is refused
    auto tiny = make_dom_cuda_engine(0, 4096);
    const Hmm h = random_vit_hmm(50);
    tiny->set_model(build_fwd_profile(build_profile(h)));
    const std::vector<uint8_t> dsq = random_vit_codes(300);
    const std::vector<DomCudaJob> big{{dsq, dom_special_odds(dsq.size(), false), true}};
    std::vector<DomCudaResult> out(1);
    CHECK_THROWS_AS(tiny->run(big, out), ResourceError);
}

TEST_CASE("CUDA post-filter: a call of gpu-hmmsearch's shape") {
    require_gpu();
    seed();
    // M = 260; 500 whole targets of about 350 residues (a fifth homologs) as
    // parser jobs, and 1500 envelopes of 100 to 400 residues as full jobs.
    const Hmm h = random_vit_hmm(260, 20.0f);
    const FwdProfile fp = build_fwd_profile(build_profile(h));
    std::vector<std::vector<uint8_t>> targets;
    while (targets.size() < 500) {
        auto s = targets.size() % 5 == 0 ? sample_homolog(h, 50) : random_vit_codes(static_cast<size_t>(uniform(250, 450)), 1);
        if (!s.empty()) targets.push_back(std::move(s));
    }
    std::vector<DomCudaJob> jobs;
    for (const auto& s : targets) jobs.push_back({s, dom_special_odds(s.size(), true), false});
    for (int e = 0; e < 1500; ++e) {
        const auto& s = targets[static_cast<size_t>(e) % targets.size()];
        const auto n = std::min(s.size(), static_cast<size_t>(uniform(100, 400)));
        const auto a = static_cast<size_t>(uniform(0, static_cast<int>(s.size() - n)));
        jobs.push_back({std::span<const uint8_t>(s).subspan(a, n), dom_special_odds(s.size(), false), true});
    }
    const std::vector<Want> want = cpu_results(fp, jobs);
    for (DomCudaForm form : kForms) {
        auto eng = make_dom_cuda_engine(0, 0, form);
        eng->set_model(fp);
        std::vector<DomCudaResult> got(jobs.size());
        size_t last_first = 0, last_n = 0;
        eng->run(jobs, got, [&](size_t first, size_t n) {
            last_first = first;
            last_n = n;
        });
        Tally t;
        for (size_t j = 0; j < jobs.size(); ++j) {
            DomMatrix f, b;
            eng->specials(j, f, b);
            compare_job(job_name(fp, jobs, j), want[j], got[j], f, b, t);
        }
        const FwdProfile* const one[1] = {&fp};
        check_matrices(*eng, one, jobs, want, last_first, last_n, t);  // the resident ones
        INFO(form_name(form));
        CHECK(t.bad == 0);
    }
}

TEST_CASE("CUDA post-filter: one call holds jobs of several models, each on its own odds and shape") {
    require_gpu();
    seed();
    Tally t;
    // small and large models side by side (M = 100's early D->D exit on one
    // side only); the last set holds models wide enough for two and one
    // warps a block and for four threads a job under the warp form
    const std::vector<std::vector<int>> sets = {{uniform(1, 5), uniform(101, 300)},
                                                {uniform(101, 300), 1, uniform(6, 99), 100, uniform(1, 13)},
                                                {513, 2, 57},
                                                {uniform(780, 900), 40, uniform(1560, 1700), uniform(3120, 3300)}};
    for (DomCudaForm form : kForms)
    for (const auto& sizes : sets) {
        auto eng = make_dom_cuda_engine(0, 0, form);
        const ModelSet s = model_set(sizes, 600);
        const std::vector<size_t> starts = compare(*eng, s.ptrs, s.jobs, t);
        CHECK(starts.size() == 1);
        // cut into several batches, each mixing the models
        uint64_t total = 0, largest = 0;
        for (const DomCudaJob& j : s.jobs) {
            const uint64_t b = dom_job_bytes(s.fps[j.model].Q, j.dsq.size(), j.full);
            total += b;
            largest = std::max(largest, b);
        }
        auto small = make_dom_cuda_engine(0, std::max(largest, total / 4), form);
        CHECK(compare(*small, s.ptrs, s.jobs, t).size() > 1);
        // and the same engine, its models set again, on one model's jobs alone
        std::vector<DomCudaJob> one_model;
        for (DomCudaJob j : s.jobs)
            if (j.model == 1) one_model.push_back({j.dsq, j.odds, j.full, 0});
        compare(*eng, s.fps[1], one_model, t);
    }
    // a job of a model not set is refused
    const ModelSet s = model_set(std::vector<int>{5, 9}, 50);
    auto eng = make_dom_cuda_engine(0);
    eng->set_model(s.fps[0]);
    std::vector<DomCudaResult> out(s.jobs.size());
    CHECK_THROWS_AS(eng->run(s.jobs, out), InternalError);
    MESSAGE(t.jobs << " jobs (" << t.full << " full), " << t.batches << " batches, " << t.bad << " mismatches");
    CHECK(t.bad == 0);
    CHECK(t.full > 0);
}
