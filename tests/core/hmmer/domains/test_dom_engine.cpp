// The forms of the post-filter stages agree to the bit: the CPU engine
// (vector kernels, threads) gives every target the reference engine's
// outcome, scores, envelopes and alignment strings, on real models and fresh
// random targets with homologous stretches (single, repeated and fused
// domains, so regions are clustered too), whatever the thread count; and the
// staged pipeline (docs/hmmer-filters.md §16.4) gives the same whatever
// batch kernels run stages A and C, in whatever batches, and turns their
// range errors into the outcome hmmsearch's serial order meets first.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/hmmer/domains/dom_batch.hpp"
#include "core/hmmer/domains/dom_engine.hpp"
#include "core/hmmer/domains/dom_split.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/profile.hpp"
#include "dom_search_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

// The reference kernels behind the batch interface, one item per inner
// call and in reverse order; counts the calls it gets, and lets a test
// change results on their way out (as a faulty device would).
class ProbeKernels final : public DomBatchKernels {
public:
    std::function<void(std::span<const DomTarget>, std::span<DomParserOut>)> tamper_parsers;
    std::function<void(std::span<const DomTarget>, std::span<const DomEnvelopeJob>, std::span<DomEnvelopeOut>)>
        tamper_envelopes;
    int parser_calls = 0, envelope_calls = 0;

    std::string name() const override { return "probe"; }
    void parsers(std::span<const DomParsersCall> calls) override {
        ++parser_calls;
        for (const DomParsersCall& c : calls) {
            for (size_t t = c.targets.size(); t-- > 0;)
                dom_parsers(*inner_, c.model, c.targets.subspan(t, 1), c.out.subspan(t, 1));
            if (tamper_parsers) tamper_parsers(c.targets, c.out);
        }
    }
    void envelopes(std::span<const DomEnvelopesCall> calls) override {
        ++envelope_calls;
        for (const DomEnvelopesCall& c : calls) {
            for (size_t z = c.jobs.size(); z-- > 0;)
                dom_envelopes(*inner_, c.model, c.targets, c.jobs.subspan(z, 1), c.out.subspan(z, 1));
            if (tamper_envelopes) tamper_envelopes(c.targets, c.jobs, c.out);
        }
    }

private:
    std::unique_ptr<DomBatchKernels> inner_ = make_dom_cpu_batch_kernels("reference", dom_reference_kernels(), 1);
};

// An engine on a probe that the test keeps a hand on.
std::unique_ptr<DomEngine> probe_engine(ProbeKernels*& probe, unsigned threads, uint64_t batch_residues) {
    auto p = std::make_unique<ProbeKernels>();
    probe = p.get();
    return make_dom_staged_engine("probe", dom_reference_kernels(), std::move(p), threads, batch_residues);
}

// The jobs of target `seqidx` in a batch, in their order.
std::vector<size_t> jobs_of(int64_t seqidx, std::span<const DomTarget> targets, std::span<const DomEnvelopeJob> jobs) {
    std::vector<size_t> z;
    for (size_t k = 0; k < jobs.size(); ++k)
        if (targets[jobs[k].target].seqidx == seqidx) z.push_back(k);
    return z;
}

}  // namespace

TEST_CASE("the CPU engine gives every target the reference engine's result, at any thread count") {
    const uint64_t s = seed();
    rng().seed(s);
    int hits = 0, clustered = 0;
    for (const Search& search : searches(30)) {
        for (unsigned threads : {1u, 3u}) {
            CAPTURE(search.hmm->name);
            CAPTURE(threads);
            const std::vector<DomResult> got = search.run(*make_dom_cpu_engine(threads));
            for (size_t j = 0; j < got.size(); ++j) check_same(search.want[j], got[j]);
        }
        for (const DomResult& r : search.want) {
            hits += r.outcome == DomOutcome::hit;
            clustered += r.outcome == DomOutcome::hit && r.hit.nclustered > 0;
        }
    }
    // The data reach the stages they are meant to test.
    CHECK(hits >= 20);
    CHECK(clustered >= 1);
    MESSAGE("hits " << hits << ", with clustered regions " << clustered);
}

TEST_CASE("batch kernels of another form, in batches of any size, on any thread count, give the same results") {
    const uint64_t s = seed();
    rng().seed(s);
    for (const Search& search : searches(20)) {
        uint64_t residues = 0, longest = 0;
        for (const DomTarget& t : search.targets) {
            residues += t.dsq.size();
            longest = std::max<uint64_t>(longest, t.dsq.size());
        }
        for (const uint64_t batch : {uint64_t{1}, residues / 4, kDomBatchResidues})
            for (unsigned threads : {1u, 2u, 4u}) {
                CAPTURE(search.hmm->name);
                CAPTURE(batch);
                CAPTURE(threads);
                ProbeKernels* probe = nullptr;
                const auto engine = probe_engine(probe, threads, batch);
                const std::vector<DomResult> got = search.run(*engine);
                for (size_t j = 0; j < got.size(); ++j) check_same(search.want[j], got[j]);
                // Batches as asked: one target each, all at once, or a few:
                // none over a quarter, two neighbours together over it.
                if (batch == 1) CHECK(probe->parser_calls == static_cast<int>(search.targets.size()));
                if (batch == residues / 4 && longest <= batch)
                    CHECK((probe->parser_calls >= 4 && probe->parser_calls <= 9));
                if (batch == kDomBatchResidues) CHECK(probe->parser_calls == 1);
                CHECK(probe->envelope_calls == probe->parser_calls);
            }
    }
}

TEST_CASE("range errors of the batch kernels come out as hmmsearch meets them, first one first") {
    const uint64_t s = seed();
    rng().seed(s);
    // A target with two envelopes or more, all of them hits.
    const Search* search = nullptr;
    int64_t victim = -1;
    std::vector<Search> all;
    for (int tries = 0; tries < 5 && victim < 0; ++tries) {
        all = searches(30);
        for (const Search& sr : all)
            for (size_t j = 0; j < sr.want.size() && victim < 0; ++j) {
                const DomResult& r = sr.want[j];
                if (r.outcome == DomOutcome::hit && r.hit.domains.size() >= 2 &&
                    r.hit.domains.size() == static_cast<size_t>(r.hit.nenvelopes)) {
                    search = &sr;
                    victim = static_cast<int64_t>(j);
                }
            }
    }
    REQUIRE(victim >= 0);
    CAPTURE(search->hmm->name);
    CAPTURE(victim);
    const DomHit& before = search->want[static_cast<size_t>(victim)].hit;
    const auto results = [&](const std::function<void(ProbeKernels&)>& arm) {
        ProbeKernels* probe = nullptr;
        const auto engine = probe_engine(probe, 2, kDomBatchResidues);
        arm(*probe);
        std::vector<DomResult> got = search->run(*engine);
        // Every other target is left as it was.
        for (size_t j = 0; j < got.size(); ++j)
            if (static_cast<int64_t>(j) != victim) check_same(search->want[j], got[j]);
        return got[static_cast<size_t>(victim)];
    };
    const auto set_envelopes = [&](ProbeKernels& p, DomEnvelopeStatus first, DomEnvelopeStatus second) {
        p.tamper_envelopes = [=](auto targets, auto jobs, auto out) {
            const std::vector<size_t> z = jobs_of(victim, targets, jobs);
            REQUIRE(z.size() >= 2);
            out[z[0]].status = first;
            out[z[1]].status = second;
        };
    };
    using S = DomEnvelopeStatus;
    SUBCASE("the first envelope's error wins over the second's") {
        CHECK(results([&](ProbeKernels& p) { set_envelopes(p, S::backward_range_error, S::forward_range_error); })
                  .outcome == DomOutcome::backward_range_error);
        CHECK(results([&](ProbeKernels& p) { set_envelopes(p, S::forward_range_error, S::backward_range_error); })
                  .outcome == DomOutcome::forward_range_error);
    }
    SUBCASE("an envelope whose decoding overflows is dropped, the others kept as they were") {
        const DomResult r = results([&](ProbeKernels& p) { set_envelopes(p, S::decoding_overflow, S::ok); });
        REQUIRE(r.outcome == DomOutcome::hit);
        CHECK(r.hit.nregions == before.nregions);
        CHECK(r.hit.nenvelopes == before.nenvelopes);
        REQUIRE(r.hit.domains.size() == before.domains.size() - 1);
        for (size_t d = 0; d < r.hit.domains.size(); ++d) {
            const DomDomain &x = before.domains[d + 1], &y = r.hit.domains[d];
            CHECK(x.ienv == y.ienv);
            CHECK(x.jenv == y.jenv);
            CHECK(same_bits(x.envsc, y.envsc));
            CHECK(same_bits(x.domcorrection, y.domcorrection));
            CHECK(same_bits(x.bitscore, y.bitscore));
            CHECK(x.ad.aseq == y.ad.aseq);
        }
    }
    SUBCASE("a parser's error is the target's outcome, with no envelope run") {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        for (const bool forward : {true, false}) {
            const DomResult r = results([&](ProbeKernels& p) {
                p.tamper_parsers = [=](auto targets, auto out) {
                    for (size_t t = 0; t < targets.size(); ++t)
                        if (targets[t].seqidx == victim) (forward ? out[t].fwdsc : out[t].bcksc) = nan;
                };
                p.tamper_envelopes = [=](auto targets, auto jobs, auto) {
                    CHECK(jobs_of(victim, targets, jobs).empty());
                };
            });
            CHECK(r.outcome == (forward ? DomOutcome::forward_range_error : DomOutcome::backward_range_error));
        }
    }
}

namespace {

// Batch kernels of the reference form that note the rows of every item they get.
class RowNotingKernels final : public DomBatchKernels {
public:
    std::vector<uint64_t> parser_rows, envelope_rows;
    std::string name() const override { return "noting"; }
    void parsers(std::span<const DomParsersCall> calls) override {
        for (const DomParsersCall& c : calls)
            for (const DomTarget& t : c.targets) parser_rows.push_back(t.dsq.size());
        inner_->parsers(calls);
    }
    void envelopes(std::span<const DomEnvelopesCall> calls) override {
        for (const DomEnvelopesCall& c : calls)
            for (const DomEnvelopeJob& z : c.jobs) envelope_rows.push_back(static_cast<uint64_t>(z.j - z.i + 1));
        inner_->envelopes(calls);
    }

private:
    std::unique_ptr<DomBatchKernels> inner_ = make_dom_cpu_batch_kernels("reference", dom_reference_kernels(), 1);
};

}  // namespace

TEST_CASE("split batch kernels: the CPU side takes the longest items, and the results are the reference's") {
    const uint64_t s = seed();
    rng().seed(s);
    // A GPU that costs 1 us a row and a CPU thread that costs half that for
    // a whole row: the CPU takes the longest items until its share (over
    // `threads`) would outlast the longest one left to the GPU.
    for (const Search& search : searches(12))
        for (unsigned threads : {1u, 3u}) {
            CAPTURE(search.hmm->name);
            CAPTURE(threads);
            FwdSplitCosts costs;
            costs.row_us = 1.0;
            costs.row_us_per_q = 0.0;
            costs.cell_ns = 500.0 / search.hmm->M;
            auto gpu = std::make_unique<RowNotingKernels>();
            auto cpu = std::make_unique<RowNotingKernels>();
            RowNotingKernels *g = gpu.get(), *c = cpu.get();
            const auto engine = make_dom_staged_engine(
                "split", dom_reference_kernels(), make_dom_split_batch_kernels(std::move(gpu), std::move(cpu), threads, costs),
                2, kDomBatchResidues);
            const std::vector<DomResult> got = search.run(*engine);
            for (size_t j = 0; j < got.size(); ++j) check_same(search.want[j], got[j]);
            REQUIRE(!c->parser_rows.empty());
            CHECK(!g->parser_rows.empty());
            // Every item the CPU took is at least as long as every one the GPU took.
            const auto check_longest = [](const std::vector<uint64_t>& cpu_rows, const std::vector<uint64_t>& gpu_rows) {
                if (cpu_rows.empty() || gpu_rows.empty()) return;
                CHECK(*std::min_element(cpu_rows.begin(), cpu_rows.end()) >=
                      *std::max_element(gpu_rows.begin(), gpu_rows.end()));
            };
            check_longest(c->parser_rows, g->parser_rows);
            check_longest(c->envelope_rows, g->envelope_rows);
            // With one thread at half the GPU's cost the CPU takes only the
            // longest target (the batch is one call).
            if (threads == 1) CHECK(c->parser_rows.size() == 1);
        }
}

TEST_CASE("several models searched at once give each model the results of its own search, however batches cut them") {
    const uint64_t s = seed();
    rng().seed(s);
    std::vector<Search> all = searches(15);
    REQUIRE(all.size() >= 2);
    DomSettings settings;
    settings.seed = static_cast<uint32_t>(uniform(1, 1000));
    // Each model alone, with the settings the joint search shares.
    std::vector<std::vector<DomResult>> want(all.size());
    uint64_t residues = 0;
    for (size_t m = 0; m < all.size(); ++m) {
        all[m].settings = settings;
        want[m] = all[m].run(*make_dom_reference_engine());
        for (const DomTarget& t : all[m].targets) residues += t.dsq.size();
    }
    const auto joint = [&](DomEngine& engine) {
        std::vector<std::vector<DomResult>> got(all.size());
        std::vector<DomSearchCall> calls;
        for (size_t m = 0; m < all.size(); ++m) {
            got[m].resize(all[m].targets.size());
            calls.push_back({all[m].model(), all[m].targets, got[m]});
        }
        engine.search(calls, settings);
        for (size_t m = 0; m < all.size(); ++m) {
            CAPTURE(all[m].hmm->name);
            for (size_t j = 0; j < got[m].size(); ++j) check_same(want[m][j], got[m][j]);
        }
    };
    // Batches that hold every model, a few, or cut models in two.
    for (const uint64_t batch : {kDomBatchResidues, residues / 3, uint64_t{1}})
        for (unsigned threads : {1u, 3u}) {
            CAPTURE(batch);
            CAPTURE(threads);
            ProbeKernels* probe = nullptr;
            const auto engine = probe_engine(probe, threads, batch);
            joint(*engine);
            if (batch == kDomBatchResidues) CHECK(probe->parser_calls == 1);  // one call for every model
            joint(*make_dom_staged_engine("cpu", dom_vector_kernels(),
                                          make_dom_cpu_batch_kernels("cpu", dom_vector_kernels(), threads), threads,
                                          batch));
        }
    // Split kernels over several models: each side gets a call per model.
    FwdSplitCosts costs;
    costs.row_us = 1.0;
    costs.row_us_per_q = 0.0;
    costs.cell_ns = 2.0;
    auto gpu = std::make_unique<RowNotingKernels>();
    auto cpu = std::make_unique<RowNotingKernels>();
    RowNotingKernels *g = gpu.get(), *c = cpu.get();
    joint(*make_dom_staged_engine("split", dom_reference_kernels(),
                                  make_dom_split_batch_kernels(std::move(gpu), std::move(cpu), 2, costs), 2,
                                  kDomBatchResidues));
    CHECK(!c->parser_rows.empty());
    CHECK(!g->parser_rows.empty());
}

TEST_CASE("the split rule: the CPU takes the slowest GPU items while its threads finish first") {
    const std::vector<SplitItemCost> items{{10, 4}, {8, 4}, {6, 4}, {5, 4}, {1, 4}};
    CHECK(split_cpu_share(items, 1) == 1);   // 4 < 10; then 8 >= 8
    CHECK(split_cpu_share(items, 2) == 2);   // then 12/2 = 6 >= 6
    CHECK(split_cpu_share(items, 4) == 4);   // 16/4 = 4 < 5; the last is faster on the GPU than alone on a thread
    CHECK(split_cpu_share(items, 100) == 4);
    CHECK(split_cpu_share({}, 4) == 0);
}

TEST_CASE("the split rule with a GPU of bounded concurrency: the CPU also takes its share of the summed work") {
    // Forty items of 1 s on the GPU, 2 s on a CPU thread; the GPU runs 4 at
    // once, so alone it would take 10 s.
    const std::vector<SplitItemCost> items(40, SplitItemCost{1, 2});
    CHECK(split_cpu_share(items, 8) == 0);  // unbounded: 2 s on a thread >= 1 s on the GPU
    // 8 threads: the CPU's k+1 items take 2(k+1)/8 s, the GPU's (40-k)/4 s;
    // it takes items while k+1 < 40-k: twenty, both sides then 5 s
    CHECK(split_cpu_share(items, 8, 4) == 20);
    CHECK(split_cpu_share(items, 1, 4) == 4);   // 2(k+1) < (40 - k)/4 while k <= 3
    CHECK(split_cpu_share(items, 8, 1e9) == 0);  // a GPU that runs everything at once: as unbounded
}
