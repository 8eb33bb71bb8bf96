// The CUDA post-filter Forward, Backward and decoding (kernels/dom/dom_cuda.hpp)
// against the CPU forms (dom_cpu.hpp), bit for bit (NaN for NaN): every
// score, every special and scale factor of both matrices, totscale and the
// Backward's own-scales switch, and for full jobs every Forward cell, every
// posterior cell and special and the decoding status. Fresh random models
// each run (the seed is printed) over many stripe shapes on both sides of
// M = 100, random, homologous and two-domain targets, parser jobs mixed with
// envelope (unihit) and region (multihit) jobs on pieces of them, the case
// where Backward takes its own scale factors and decoding overflows, and
// calls cut into many batches. A mismatch names the first differing job,
// row and cell. Skips (77) without a GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/domains/dom_cpu.hpp"
#include "core/hmmer/profile.hpp"
#include "cuda_test_support.hpp"
#include "dom_test_support.hpp"
#include "fwd_test_support.hpp"
#include "kernels/dom/dom_cuda.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

std::string show(float v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g (0x%08x)", static_cast<double>(v), std::bit_cast<uint32_t>(v));
    return buf;
}

const char* special_name(int s) {
    static const char* const names[] = {"E", "N", "J", "B", "C", "scale"};
    return names[s];
}
const char* cell_name(int c) {
    static const char* const names[] = {"M", "D", "I"};
    return names[c];
}

// The first special, totscale or own-scales flag that differs, or "".
std::string specials_diff(const DomMatrix& got, const DomMatrix& want, const char* what) {
    std::ostringstream o;
    if (got.L() != want.L() || got.M() != want.M()) {
        o << what << ": shape M=" << got.M() << " L=" << got.L() << ", want M=" << want.M() << " L=" << want.L();
        return o.str();
    }
    for (uint64_t i = 0; i <= want.L(); ++i)
        for (int s = 0; s < kDomSpecials; ++s) {
            const float g = got.x(i, static_cast<DomSpecial>(s)), w = want.x(i, static_cast<DomSpecial>(s));
            if (same_score(g, w)) continue;
            o << what << " row " << i << " special " << special_name(s) << ": got " << show(g) << " want " << show(w);
            return o.str();
        }
    if (!same_score(got.totscale, want.totscale))
        o << what << " totscale: got " << show(got.totscale) << " want " << show(want.totscale);
    else if (got.has_own_scales != want.has_own_scales)
        o << what << " has_own_scales: got " << got.has_own_scales << " want " << want.has_own_scales;
    return o.str();
}

// The first cell of a full matrix that differs (rows in order), or "".
std::string cells_diff(const DomMatrix& got, const DomMatrix& want, const char* what) {
    std::ostringstream o;
    const int Q = want.Q();
    for (uint64_t i = 0; i <= want.L(); ++i)
        for (int q = 0; q < Q; ++q)
            for (DomCell c : {kDomM, kDomD, kDomI})
                for (int z = 0; z < kFwdLanes; ++z) {
                    const float g = got.cell(i, q, c)[z], w = want.cell(i, q, c)[z];
                    if (same_score(g, w)) continue;
                    o << what << " row " << i << " position " << q << " lane " << z << " (node " << q + 1 + z * Q
                      << ") " << cell_name(c) << ": got " << show(g) << " want " << show(w);
                    return o.str();
                }
    return o.str();
}

// What the CPU forms give for one job: full jobs decoded in place, as the
// search decodes (b then holds the posteriors; bx keeps the Backward's
// specials, totscale and own-scales flag).
struct Want {
    float fwd = 0, bck = 0;
    DomDecodeStatus dec = DomDecodeStatus::ok;
    DomMatrix f, b, bx;
};

DomMatrix specials_of(const DomMatrix& m) {
    DomMatrix x;
    x.reshape(m.M(), m.L(), false);
    for (uint64_t i = 0; i <= m.L(); ++i)
        for (int s = 0; s < kDomSpecials; ++s) x.x(i, static_cast<DomSpecial>(s)) = m.x(i, static_cast<DomSpecial>(s));
    x.totscale = m.totscale;
    x.has_own_scales = m.has_own_scales;
    return x;
}

std::vector<Want> cpu_results(const FwdProfile& fp, const std::vector<DomCudaJob>& jobs) {
    std::vector<Want> out(jobs.size());
    const unsigned nt = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (unsigned w = 0; w < nt; ++w)
        pool.emplace_back([&, w] {
            for (size_t j = w; j < jobs.size(); j += nt) {
                Want& r = out[j];
                r.fwd = dom_forward_cpu(fp, jobs[j].odds, jobs[j].dsq, r.f, jobs[j].full);
                r.bck = dom_backward_cpu(fp, jobs[j].odds, jobs[j].dsq, r.f, r.b, jobs[j].full);
                r.bx = specials_of(r.b);
                if (jobs[j].full) r.dec = dom_decoding_cpu(jobs[j].odds, r.f, r.b, r.b);
            }
        });
    for (auto& th : pool) th.join();
    return out;
}

struct Tally {
    long jobs = 0, full = 0, cells = 0, bad = 0, nan = 0, own = 0, overflow = 0, batches = 0;
    void fail(const std::string& what) {
        if (++bad <= 8) MESSAGE("MISMATCH " << what);
    }
};

std::string job_name(const FwdProfile& fp, const std::vector<DomCudaJob>& jobs, size_t j) {
    std::ostringstream o;
    o << "M=" << fp.M << " job " << j << " (" << (jobs[j].full ? "full" : "parser") << ", L=" << jobs[j].dsq.size()
      << ")";
    return o.str();
}

// The resident full jobs [first, first + n) against the CPU's matrices.
void check_matrices(const DomCudaEngine& eng, const FwdProfile& fp, const std::vector<DomCudaJob>& jobs,
                    const std::vector<Want>& want, size_t first, size_t n, Tally& t) {
    for (size_t j = first; j < first + n; ++j) {
        if (!jobs[j].full) continue;
        const DomDeviceMatrix pm = eng.posterior(j), fm = eng.forward(j);
        if (pm.cells != eng.arena() + pm.offset || pm.specials != pm.cells + (pm.L + 1) * pm.row_floats() ||
            fm.offset + fm.floats() != pm.offset || pm.L != jobs[j].dsq.size() || pm.Q != fp.Q)
            t.fail(job_name(fp, jobs, j) + ": device matrix views not in DomMatrix's layout");
        DomMatrix f, pp;
        eng.copy_forward(j, f);
        eng.copy_posterior(j, pp);
        t.cells += static_cast<long>(2 * (pm.L + 1) * pm.row_floats());
        for (const std::string& d : {cells_diff(f, want[j].f, "Forward"), specials_diff(f, want[j].f, "Forward"),
                                     cells_diff(pp, want[j].b, "posterior"),
                                     specials_diff(pp, want[j].b, "posterior")})
            if (!d.empty()) {
                t.fail(job_name(fp, jobs, j) + ": " + d);
                break;
            }
    }
}

// Runs the jobs on the engine and compares everything with the CPU forms;
// returns where each batch began.
std::vector<size_t> compare(DomCudaEngine& eng, const FwdProfile& fp, const std::vector<DomCudaJob>& jobs, Tally& t) {
    const std::vector<Want> want = cpu_results(fp, jobs);
    std::vector<DomCudaResult> got(jobs.size());
    eng.set_model(fp);
    size_t next = 0;
    std::vector<size_t> starts;
    eng.run(jobs, got, [&](size_t first, size_t n) {
        if (first != next || n == 0) t.fail("batches not in order: " + std::to_string(first) + "+" + std::to_string(n));
        next = first + n;
        ++t.batches;
        starts.push_back(first);
        check_matrices(eng, fp, jobs, want, first, n, t);
    });
    if (next != jobs.size()) t.fail("batches ended at job " + std::to_string(next));
    for (size_t j = 0; j < jobs.size(); ++j) {
        ++t.jobs;
        t.full += jobs[j].full;
        t.nan += std::isnan(want[j].fwd) || std::isnan(want[j].bck);
        t.overflow += want[j].dec == DomDecodeStatus::overflow;
        const std::string name = job_name(fp, jobs, j);
        if (!same_score(got[j].fwd_score, want[j].fwd))
            t.fail(name + ": Forward score " + show(got[j].fwd_score) + " want " + show(want[j].fwd));
        if (!same_score(got[j].bck_score, want[j].bck))
            t.fail(name + ": Backward score " + show(got[j].bck_score) + " want " + show(want[j].bck));
        if (got[j].decoding != want[j].dec) t.fail(name + ": decoding status differs");
        DomMatrix f, b;
        eng.specials(j, f, b);
        t.own += b.has_own_scales;
        std::string d = specials_diff(f, want[j].f, "Forward");
        if (d.empty()) d = specials_diff(b, want[j].bx, "Backward");
        if (!d.empty()) t.fail(name + ": " + d);
    }
    return starts;
}

// Parser jobs on whole targets (multihit) mixed, in random order, with
// full jobs on pieces of them: envelopes (unihit) and regions (multihit),
// both with the whole target's length model (docs/hmmer-filters.md §16.1).
std::vector<DomCudaJob> mixed_jobs(const std::vector<std::vector<uint8_t>>& targets) {
    std::vector<DomCudaJob> jobs;
    for (const auto& s : targets) {
        const std::span<const uint8_t> t(s);
        jobs.push_back({t, dom_special_odds(t.size(), true), false});
        for (bool multihit : {false, true}) {
            const auto a = static_cast<size_t>(uniform(0, static_cast<int>(t.size()) - 1));
            const auto n = static_cast<size_t>(uniform(1, static_cast<int>(t.size() - a)));
            jobs.push_back({t.subspan(a, n), dom_special_odds(t.size(), multihit), true});
        }
        if (uniform(0, 3) == 0) jobs.push_back({t, dom_special_odds(t.size(), false), true});
    }
    std::shuffle(jobs.begin(), jobs.end(), rng());
    return jobs;
}

std::vector<std::vector<uint8_t>> targets_for(const Hmm& h, int max_rand) {
    auto s = fwd_targets_for(h, 4, max_rand);
    auto two = sample_homolog(h, 20);  // two domains: J paths, Backward's own scales in unihit mode
    const auto second = sample_homolog(h, 20);
    two.insert(two.end(), second.begin(), second.end());
    if (!two.empty()) s.push_back(std::move(two));
    return s;
}

}  // namespace

TEST_CASE("CUDA post-filter Forward, Backward and decoding == the CPU forms, bit for bit") {
    require_gpu();
    seed();
    auto eng = make_dom_cuda_engine(0);
    Tally t;
    for (int M : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 33, 34, 35, 36, 57, 99, 100, 101, 102, 103, 180, 260, 513}) {
        for (int rep = 0; rep < 2; ++rep) {
            const Hmm h = random_vit_hmm(M, rep ? 1.0f : frand(5.0f, 40.0f));
            const FwdProfile fp = build_fwd_profile(build_profile(h));
            const auto targets = targets_for(h, M > 200 ? 400 : 900);
            compare(*eng, fp, mixed_jobs(targets), t);
        }
    }
    MESSAGE(t.jobs << " jobs (" << t.full << " full, " << t.cells << " cells), " << t.nan << " with a NaN score, "
                   << t.own << " Backwards on own scales, " << t.bad << " mismatches");
    CHECK(t.bad == 0);
    CHECK(t.full > 0);
    CHECK(t.nan > 0);  // targets of only -inf codes
}

TEST_CASE("CUDA post-filter: a Backward on its own scale factors, and a decoding that overflows") {
    require_gpu();
    auto eng = make_dom_cuda_engine(0);
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
    CHECK(t.bad == 0);
    CHECK(t.own > 0);
    CHECK(t.overflow > 0);
}

TEST_CASE("CUDA post-filter: a call cut into many batches by the memory budget") {
    require_gpu();
    seed();
    auto eng = make_dom_cuda_engine(0, uint64_t{3} << 20);  // a few jobs a batch
    Tally t;
    for (int M : {7, 64, 101}) {
        const Hmm h = random_vit_hmm(M, frand(5.0f, 40.0f));
        const FwdProfile fp = build_fwd_profile(build_profile(h));
        const auto targets = targets_for(h, 600);
        const auto jobs = mixed_jobs(targets);
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
