// The CUDA batch kernels of the post-filter stages (kernels/dom/
// dom_batch_cuda.hpp, docs/hmmer-filters.md §16.10) behind the staged
// engine give every target the reference engine's result to the bit:
// outcome, scores, envelopes, null2 corrections and alignment strings, on
// the example models and fresh random targets with homologous stretches
// (clustered regions included), in batches of any size. Skips (77) without
// a GPU.
#include <doctest/doctest.h>

#include <thread>
#include <vector>

#include "core/hmmer/domains/dom_engine.hpp"
#include "cuda_test_support.hpp"
#include "dom_search_test_support.hpp"
#include "kernels/dom/dom_batch_cuda.hpp"

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
