// The optimized CPU Forward filter against the scalar reference, bit for
// bit (NaN for NaN): 1, 2, 3 and all threads, fresh random models with every
// stripe shape and both D->D modes (M below and from 100), homologs that
// rescale many times, -inf codes, and a 100,000-residue target. The engine
// switches the FPU to flush-to-zero per target and must leave the caller's
// mode as it found it.
#include <doctest/doctest.h>

#include <vector>

#include "core/hmmer/fwd/fwd_cpu.hpp"
#include "core/hmmer/fwd/fwd_reference.hpp"
#include "core/hmmer/fwd/fwd_split.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/profile.hpp"
#include "fwd_test_support.hpp"
#include "hmmer_test_support.hpp"
#include "test_support.hpp"

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

using namespace warpdp;
using namespace warpdp::test;

namespace {

long compare_engines(const FwdProfile& fp, const std::vector<std::vector<uint8_t>>& seqs) {
    std::vector<float> want(seqs.size());
    for (size_t i = 0; i < seqs.size(); ++i) want[i] = fwd_reference(fp, seqs[i]);
    const SeqBatch batch = fwd_batch(seqs);
    for (unsigned threads : {1u, 2u, 3u, 0u}) {
        CAPTURE(threads);
        auto eng = make_fwd_cpu_engine(threads);
        std::vector<float> got(seqs.size(), 12345.0f);
        eng->score(fp, batch, got);
        for (size_t j = 0; j < seqs.size(); ++j) {
            CAPTURE(j);
            CAPTURE(seqs[j].size());
            CAPTURE(want[j]);
            CAPTURE(got[j]);
            REQUIRE(same_score(got[j], want[j]));
        }
    }
    return static_cast<long>(seqs.size());
}

}  // namespace

TEST_CASE("CPU Forward engine equals the reference on random HMMs") {
    seed();
#if defined(__SSE2__)
    const unsigned mode = _mm_getcsr() & ~0x3Fu;  // control bits, not the sticky exception flags
#endif
    long compared = 0;
    for (int M : {1, 2, 3, 4, 5, 8, 9, 12, 13, 50, 99, 100, 101, 300, 1142}) {
        for (int rep = 0; rep < (M < 100 ? 3 : 1); ++rep) {
            CAPTURE(M);
            CAPTURE(rep);
            const Hmm h = random_vit_hmm(M, rep % 2 ? 1.0f : frand(5.0f, 40.0f));
            compared += compare_engines(build_fwd_profile(build_profile(h)), fwd_targets_for(h, 10, M > 300 ? 600 : 2000));
        }
    }
#if defined(__SSE2__)
    CHECK((_mm_getcsr() & ~0x3Fu) == mode);
#endif
    MESSAGE(compared << " targets compared per thread count");
}

TEST_CASE("CPU Forward engine equals the reference on Pfam models and a 100,000-residue target") {
    const Hmm fn3 = read_all_hmms(kHmmerTutorial + "fn3.hmm").at(0);
    const FwdProfile fp = build_fwd_profile(build_profile(fn3));
    std::vector<std::vector<uint8_t>> seqs{random_vit_codes(100000, 3)};
    for (int i = 0; i < 20; ++i) seqs.push_back(sample_homolog(fn3, 200));
    std::erase_if(seqs, [](const auto& s) { return s.empty(); });
    CHECK(compare_engines(fp, seqs) > 0);
    const Hmm pk = read_all_hmms(kHmmerTutorial + "Pkinase.hmm").at(0);
    seqs.clear();
    for (int i = 0; i < 20; ++i) seqs.push_back(sample_homolog(pk, 500));
    std::erase_if(seqs, [](const auto& s) { return s.empty(); });
    CHECK(compare_engines(build_fwd_profile(build_profile(pk)), seqs) > 0);
}

TEST_CASE("a split Forward engine gives each target the same score whichever side takes it") {
    seed();
    // Two CPU-side forms stand in for the GPU and the CPU; cost settings
    // that send none, some and all targets to the second.
    std::vector<FwdProfile> profiles;
    std::vector<SeqBatch> batches;
    for (int M : {20, 150, 600}) {
        const Hmm h = random_vit_hmm(M, frand(1.0f, 20.0f));
        profiles.push_back(build_fwd_profile(build_profile(h)));
        batches.push_back(fwd_batch(fwd_targets_for(h, 12, 1500)));
    }
    for (double cell_ns : {1e9, 2.9, 1e-9}) {
        CAPTURE(cell_ns);
        FwdSplitCosts costs;
        costs.cell_ns = cell_ns;
        auto split = make_fwd_split_engine(make_fwd_cpu_engine(2), make_fwd_reference_engine(), 3, costs);
        std::vector<std::vector<float>> got(profiles.size());
        std::vector<FwdJob> jobs;
        for (size_t i = 0; i < profiles.size(); ++i) {
            got[i].assign(batches[i].size(), 12345.0f);
            jobs.push_back({&profiles[i], &batches[i], got[i]});
        }
        split->score_many(jobs);
        for (size_t i = 0; i < profiles.size(); ++i)
            for (size_t j = 0; j < batches[i].size(); ++j) {
                CAPTURE(j);
                REQUIRE(same_score(got[i][j], fwd_reference(profiles[i], batches[i].seq(j))));
            }
    }
}
