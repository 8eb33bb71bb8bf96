// The CUDA batch kernels of the post-filter stages (kernels/dom/
// dom_batch_cuda.hpp, docs/hmmer-filters.md §16.10) behind the staged
// engine give every target the reference engine's result to the bit:
// outcome, scores, envelopes, null2 corrections and alignment strings, on
// the example models and fresh random targets with homologous stretches
// (clustered regions included), in batches of any size; and the kernels
// given several models' calls at once (one launch for all of them) give
// each call the CPU kernels' results to the bit. Skips (77) without a GPU.
#include <doctest/doctest.h>

#include <cmath>
#include <deque>
#include <thread>
#include <vector>

#include "core/hmmer/domains/dom_batch.hpp"
#include "core/hmmer/domains/dom_engine.hpp"
#include "cuda_test_support.hpp"
#include "dom_search_test_support.hpp"
#include "kernels/dom/dom_batch_cuda.hpp"
#include "vit_random.hpp"

using namespace warpdp;
using namespace warpdp::test;

TEST_CASE("the staged engine on the CUDA batch kernels gives the reference engine's results") {
    require_gpu();
    const uint64_t s = seed();
    rng().seed(s);
    int hits = 0, clustered = 0, domains = 0;
    for (const Search& search : searches(60)) {
        uint64_t residues = 0;
        for (const DomTarget& t : search.targets) residues += t.dsq.size();
        for (const uint64_t batch : {residues / 5 + 1, kDomBatchResidues}) {
            CAPTURE(search.hmm->name);
            CAPTURE(batch);
            auto engine = make_dom_staged_engine("cuda", dom_vector_kernels(), make_dom_cuda_batch_kernels(0), 2, batch);
            const std::vector<DomResult> got = search.run(*engine);
            for (size_t j = 0; j < got.size(); ++j) {
                CAPTURE(j);
                check_same(search.want[j], got[j]);
            }
        }
        for (const DomResult& r : search.want) {
            hits += r.outcome == DomOutcome::hit;
            clustered += r.outcome == DomOutcome::hit && r.hit.nclustered > 0;
            if (r.outcome == DomOutcome::hit) domains += static_cast<int>(r.hit.domains.size());
        }
    }
    CHECK(hits >= 40);
    CHECK(clustered >= 1);
    MESSAGE("hits " << hits << ", domains " << domains << ", with clustered regions " << clustered);
}

TEST_CASE("several instances, each with its share of the card, on their own threads at once") {
    // (gpu-hmmsearch's last stage runs a model per worker, §16.10)
    require_gpu();
    const std::vector<Search> all = searches(40);
    constexpr unsigned kWorkers = 3;
    std::vector<std::vector<std::vector<DomResult>>> got(kWorkers);
    {
        std::vector<std::jthread> pool;
        for (unsigned w = 0; w < kWorkers; ++w)
            pool.emplace_back([&, w] {
                auto engine = make_dom_staged_engine("cuda", dom_vector_kernels(),
                                                     make_dom_cuda_batch_kernels(0, 1.0 / kWorkers), 1);
                for (const Search& search : all) got[w].push_back(search.run(*engine));
            });
    }
    for (unsigned w = 0; w < kWorkers; ++w)
        for (size_t m = 0; m < all.size(); ++m)
            for (size_t j = 0; j < all[m].want.size(); ++j) {
                CAPTURE(w);
                CAPTURE(m);
                CAPTURE(j);
                check_same(all[m].want[j], got[w][m][j]);
            }
}

namespace {

// One model's part of a multi-model call: its targets, envelope jobs (random
// stretches of them, some wanting null2) and the rows of its parser outs.
struct ModelPart {
    Hmm hmm;
    FwdProfile odds;
    std::vector<std::vector<uint8_t>> seqs;
    std::vector<DomTarget> targets;
    std::vector<DomEnvelopeJob> jobs;

    ModelPart(Hmm h, int ntargets) : hmm(std::move(h)), odds(build_fwd_profile(build_profile(hmm))) {
        for (int t = 0; t < ntargets; ++t) seqs.push_back(random_target(hmm));
        for (size_t t = 0; t < seqs.size(); ++t) {
            targets.push_back({"t", {}, {}, seqs[t], static_cast<int64_t>(t)});
            const auto L = static_cast<int64_t>(seqs[t].size());
            for (int e = uniform(0, 3); e > 0; --e) {
                const int64_t i = uniform(1, static_cast<int>(L));
                const int64_t j = uniform(static_cast<int>(i), static_cast<int>(L));
                jobs.push_back({static_cast<uint32_t>(t), i, j, uniform(0, 1) == 1});
            }
        }
    }
    DomModel model() const { return {&hmm, &odds}; }
};

// Parser outs for a part's targets, their rows in `rows`.
std::vector<DomParserOut> parser_outs(const ModelPart& p, std::deque<std::vector<float>>& rows) {
    std::vector<DomParserOut> out(p.targets.size());
    for (size_t t = 0; t < out.size(); ++t) {
        const size_t len = (p.targets[t].dsq.size() + 1) * kDomSpecials;
        std::vector<float>& r = rows.emplace_back(2 * len, 0.0f);
        out[t].fwd_rows = {r.data(), len};
        out[t].bck_rows = {r.data() + len, len};
    }
    return out;
}

bool same_rows(std::span<const float> a, std::span<const float> b) {
    if (a.size() != b.size()) return false;
    for (size_t x = 0; x < a.size(); ++x)
        if (!same_bits(a[x], b[x])) return false;
    return true;
}

// What dom_run_parsers leaves readable, compared.
void check_parser(const DomParserOut& got, const DomParserOut& want) {
    CHECK(same_bits(got.fwdsc, want.fwdsc));
    if (std::isnan(want.fwdsc)) return;
    CHECK(same_bits(got.bcksc, want.bcksc));
    if (std::isnan(want.bcksc)) return;
    CHECK(got.bck_own_scales == want.bck_own_scales);
    CHECK(same_rows(got.fwd_rows, want.fwd_rows));
    CHECK(same_rows(got.bck_rows, want.bck_rows));
}

void check_envelope(const DomEnvelopeOut& got, const DomEnvelopeOut& want) {
    REQUIRE(static_cast<int>(got.status) == static_cast<int>(want.status));
    if (want.status != DomEnvelopeStatus::forward_range_error) CHECK(same_bits(got.envsc, want.envsc));
    if (want.status != DomEnvelopeStatus::ok) return;
    CHECK(same_bits(got.oasc, want.oasc));
    CHECK(got.trace.M == want.trace.M);
    CHECK(got.trace.L == want.trace.L);
    REQUIRE(got.trace.steps.size() == want.trace.steps.size());
    for (size_t z = 0; z < want.trace.steps.size(); ++z) {
        const DomTraceStep &a = got.trace.steps[z], &b = want.trace.steps[z];
        CAPTURE(z);
        CHECK(a.st == b.st);
        CHECK(a.k == b.k);
        CHECK(a.i == b.i);
        CHECK(same_bits(a.pp, b.pp));
    }
    CHECK(same_rows(got.null2, want.null2));
}

}  // namespace

TEST_CASE("the CUDA batch kernels take several models' calls at once and give each the CPU kernels' results") {
    require_gpu();
    seed();
    // the example models (M = 149, 86, 260) beside random ones of a few nodes and of over a hundred
    static const std::vector<Hmm> examples =
        read_all_hmms(std::string(WARPDP_TEST_DATA) + "/../../examples/data/tutorial3.hmm");
    std::deque<ModelPart> parts;
    for (const Hmm& h : examples) parts.emplace_back(h, 40);
    for (int M : {1, uniform(2, 5), uniform(101, 140), uniform(20, 60)})
        parts.emplace_back(random_vit_hmm(M, frand(5.0f, 30.0f)), 40);
    parts.emplace_back(random_vit_hmm(7), 0);  // a call with no targets

    auto gpu = make_dom_cuda_batch_kernels(0);
    auto cpu = make_dom_cpu_batch_kernels("reference", dom_reference_kernels(), 4);

    // stage A
    std::deque<std::vector<float>> rows;
    std::vector<std::vector<DomParserOut>> got_p, want_p;
    for (const ModelPart& p : parts) {
        got_p.push_back(parser_outs(p, rows));
        want_p.push_back(parser_outs(p, rows));
    }
    std::vector<DomParsersCall> gp, cp;
    for (size_t m = 0; m < parts.size(); ++m) {
        gp.push_back({parts[m].model(), parts[m].targets, got_p[m]});
        cp.push_back({parts[m].model(), parts[m].targets, want_p[m]});
    }
    gpu->parsers(gp);
    cpu->parsers(cp);
    size_t parsers = 0;
    for (size_t m = 0; m < parts.size(); ++m)
        for (size_t t = 0; t < parts[m].targets.size(); ++t, ++parsers) {
            CAPTURE(m);
            CAPTURE(t);
            check_parser(got_p[m][t], want_p[m][t]);
        }

    // stage C
    std::vector<std::vector<DomEnvelopeOut>> got_e, want_e;
    std::vector<DomEnvelopesCall> ge, ce;
    for (const ModelPart& p : parts) {
        got_e.emplace_back(p.jobs.size());
        want_e.emplace_back(p.jobs.size());
    }
    for (size_t m = 0; m < parts.size(); ++m) {
        ge.push_back({parts[m].model(), parts[m].targets, parts[m].jobs, got_e[m]});
        ce.push_back({parts[m].model(), parts[m].targets, parts[m].jobs, want_e[m]});
    }
    gpu->envelopes(ge);
    cpu->envelopes(ce);
    size_t envelopes = 0, ok = 0;
    for (size_t m = 0; m < parts.size(); ++m)
        for (size_t z = 0; z < parts[m].jobs.size(); ++z, ++envelopes) {
            CAPTURE(m);
            CAPTURE(z);
            check_envelope(got_e[m][z], want_e[m][z]);
            ok += want_e[m][z].status == DomEnvelopeStatus::ok;
        }
    MESSAGE(parts.size() << " models, " << parsers << " targets, " << envelopes << " envelopes (" << ok << " decoded)");
    CHECK(ok > 100);
}
