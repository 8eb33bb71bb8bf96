// Shared by the tests of the CUDA post-filter engine and of its kernel run
// on the host (tests/kernels/dom): the CPU forms' results for a list of
// jobs, comparisons that name the first differing row and cell, and mixed
// lists of parser and full jobs on random and homologous targets.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "core/hmmer/domains/dom_cpu.hpp"
#include "dom_test_support.hpp"
#include "fwd_test_support.hpp"
#include "kernels/dom/dom_cuda.hpp"
#include "test_support.hpp"

namespace warpdp::test {

inline std::string show(float v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g (0x%08x)", static_cast<double>(v), std::bit_cast<uint32_t>(v));
    return buf;
}

inline const char* special_name(int s) {
    static const char* const names[] = {"E", "N", "J", "B", "C", "scale"};
    return names[s];
}
inline const char* cell_name(int c) {
    static const char* const names[] = {"M", "D", "I"};
    return names[c];
}

// The first special, totscale or own-scales flag that differs, or "".
inline std::string specials_diff(const DomMatrix& got, const DomMatrix& want, const char* what) {
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
inline std::string cells_diff(const DomMatrix& got, const DomMatrix& want, const char* what) {
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

inline DomMatrix specials_of(const DomMatrix& m) {
    DomMatrix x;
    x.reshape(m.M(), m.L(), false);
    for (uint64_t i = 0; i <= m.L(); ++i)
        for (int s = 0; s < kDomSpecials; ++s) x.x(i, static_cast<DomSpecial>(s)) = m.x(i, static_cast<DomSpecial>(s));
    x.totscale = m.totscale;
    x.has_own_scales = m.has_own_scales;
    return x;
}

inline std::vector<Want> cpu_results(const FwdProfile& fp, const std::vector<DomCudaJob>& jobs) {
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

inline std::string job_name(const FwdProfile& fp, const std::vector<DomCudaJob>& jobs, size_t j) {
    std::ostringstream o;
    o << "M=" << fp.M << " job " << j << " (" << (jobs[j].full ? "full" : "parser") << ", L=" << jobs[j].dsq.size()
      << ")";
    return o.str();
}

// One job's scores, decoding status and specials (as dom_specials_matrices
// gives them) against the CPU's.
inline void compare_job(const std::string& name, const Want& want, const DomCudaResult& got, const DomMatrix& f,
                        const DomMatrix& b, Tally& t) {
    ++t.jobs;
    t.nan += std::isnan(want.fwd) || std::isnan(want.bck);
    t.overflow += want.dec == DomDecodeStatus::overflow;
    t.own += b.has_own_scales;
    if (!same_score(got.fwd_score, want.fwd))
        t.fail(name + ": Forward score " + show(got.fwd_score) + " want " + show(want.fwd));
    if (!same_score(got.bck_score, want.bck))
        t.fail(name + ": Backward score " + show(got.bck_score) + " want " + show(want.bck));
    if (got.decoding != want.dec) t.fail(name + ": decoding status differs");
    std::string d = specials_diff(f, want.f, "Forward");
    if (d.empty()) d = specials_diff(b, want.bx, "Backward");
    if (!d.empty()) t.fail(name + ": " + d);
}

// A full job's Forward and posterior matrices against the CPU's.
inline void compare_full(const std::string& name, const Want& want, const DomMatrix& f, const DomMatrix& pp, Tally& t) {
    ++t.full;
    t.cells += static_cast<long>(2 * (pp.L() + 1) * pp.row_floats());
    for (const std::string& d : {cells_diff(f, want.f, "Forward"), specials_diff(f, want.f, "Forward"),
                                 cells_diff(pp, want.b, "posterior"), specials_diff(pp, want.b, "posterior")})
        if (!d.empty()) {
            t.fail(name + ": " + d);
            return;
        }
}

// Parser jobs on whole targets (multihit) mixed, in random order, with
// full jobs on pieces of them: envelopes (unihit) and regions (multihit),
// both with the whole target's length model (docs/hmmer-filters.md §16.1).
inline std::vector<DomCudaJob> mixed_jobs(const std::vector<std::vector<uint8_t>>& targets) {
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

inline std::vector<std::vector<uint8_t>> targets_for(const Hmm& h, int max_rand) {
    auto s = fwd_targets_for(h, 4, max_rand);
    auto two = sample_homolog(h, 20);  // two domains: J paths, Backward's own scales in unihit mode
    const auto second = sample_homolog(h, 20);
    two.insert(two.end(), second.begin(), second.end());
    if (!two.empty()) s.push_back(std::move(two));
    return s;
}

}  // namespace warpdp::test
