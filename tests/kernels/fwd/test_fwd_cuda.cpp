// The CUDA Forward-filter engine against the scalar reference
// (core/hmmer/fwd/fwd_reference), bit for bit (NaN for NaN), on fresh random models
// and targets every run: model sizes over every stripe shape and both D->D
// modes (M below and from 100) up to M = 2000, homologs that rescale many
// times, -inf codes (the parser's error), a 100,000-residue target, targets
// split over several device slots, several models' jobs in one call, and the
// rows in global memory (wide models) with launches cut small so one call
// makes many. Skips (77) without a GPU.
#include <doctest/doctest.h>

#include <cstdio>
#include <thread>
#include <vector>

#include "core/hmmer/fwd/fwd_reference.hpp"
#include "core/hmmer/profile.hpp"
#include "cuda_test_support.hpp"
#include "fwd_test_support.hpp"
#include "kernels/common/gpus.hpp"
#include "kernels/fwd/fwd_cuda.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

std::vector<float> reference_scores(const FwdProfile& fp, const SeqBatch& b) {
    std::vector<float> out(b.size());
    const unsigned nt = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (unsigned w = 0; w < nt; ++w)
        pool.emplace_back([&, w] {
            for (size_t j = w; j < b.size(); j += nt) out[j] = fwd_reference(fp, b.seq(j));
        });
    for (auto& th : pool) th.join();
    return out;
}

struct Tally {
    long compared = 0, nan = 0, bad = 0;
};

void compare(FwdEngine& eng, const FwdProfile& fp, const SeqBatch& b, Tally& tally) {
    std::vector<float> got(b.size(), 12345.0f);
    eng.score(fp, b, got);
    const auto want = reference_scores(fp, b);
    for (size_t j = 0; j < b.size(); ++j) {
        ++tally.compared;
        tally.nan += std::isnan(want[j]);
        if (same_score(got[j], want[j])) continue;
        if (++tally.bad <= 8)
            MESSAGE("MISMATCH M=" << fp.M << " target " << j << " L=" << b.length(j) << ": got " << got[j] << " want "
                                  << want[j]);
    }
}

}  // namespace

TEST_CASE("CUDA Forward == reference across model and target sizes, one call for all models") {
    require_gpu();
    seed();
    auto eng = make_fwd_cuda_engine({0});
    auto global = make_fwd_cuda_engine_ex({0}, 1 << 20);  // rows in global memory, ~1 MiB of them a launch
    Tally tally;
    std::vector<FwdProfile> profiles;
    std::vector<SeqBatch> batches;
    for (int M : {1, 2, 4, 5, 8, 9, 33, 99, 100, 101, 260, 513, 1142, 2000}) {
        for (int rep = 0; rep < 2; ++rep) {
            const Hmm h = random_vit_hmm(M, rep ? 1.0f : frand(5.0f, 40.0f));
            std::vector<std::vector<uint8_t>> seqs;
            for (int i = 0; i < (M > 1000 ? 4 : 12); ++i) {
                const auto more = fwd_targets_for(h, 10, M > 1000 ? 800 : 2500);
                seqs.insert(seqs.end(), more.begin(), more.end());
            }
            profiles.push_back(build_fwd_profile(build_profile(h)));
            batches.push_back(fwd_batch(seqs));
        }
    }
    for (FwdEngine* e : {eng.get(), global.get()}) {
        // all models in one call, as gpu-viterbi sends a chunk's jobs
        std::vector<std::vector<float>> got(profiles.size());
        std::vector<FwdJob> jobs;
        for (size_t i = 0; i < profiles.size(); ++i) {
            got[i].assign(batches[i].size(), 12345.0f);
            jobs.push_back({&profiles[i], &batches[i], got[i]});
        }
        e->score_many(jobs);
        for (size_t i = 0; i < profiles.size(); ++i) {
            const auto want = reference_scores(profiles[i], batches[i]);
            for (size_t j = 0; j < want.size(); ++j) {
                ++tally.compared;
                tally.nan += std::isnan(want[j]);
                if (same_score(got[i][j], want[j])) continue;
                if (++tally.bad <= 8)
                    MESSAGE("MISMATCH " << e->name() << " M=" << profiles[i].M << " target " << j << " L="
                                        << batches[i].length(j) << ": got " << got[i][j] << " want " << want[j]);
            }
        }
    }
    MESSAGE(tally.compared << " targets compared, " << tally.nan << " parser errors, " << tally.bad << " mismatches");
    CHECK(tally.bad == 0);
    CHECK(tally.nan > 0);
}

TEST_CASE("CUDA Forward: a 100,000-residue target, several slots, rows in global memory") {
    require_gpu();
    const Hmm h = random_vit_hmm(86, 20.0f);  // sharp: homologs rescale often
    const FwdProfile fp = build_fwd_profile(build_profile(h));
    std::vector<std::vector<uint8_t>> seqs{random_vit_codes(100000, 3)};
    for (int i = 0; i < 300; ++i) {
        auto s = sample_homolog(h, 300);
        if (!s.empty()) seqs.push_back(std::move(s));
    }
    for (int i = 0; i < 100; ++i) seqs.push_back(random_vit_codes(static_cast<size_t>(uniform(1, 3000)), 5));
    const SeqBatch b = fwd_batch(seqs);
    Tally tally;
    const int ngpu = static_cast<int>(list_gpus().size());
    std::vector<int> slots{0, 0, 0};  // one GPU, three shares
    for (int d = 1; d < ngpu; ++d) slots.push_back(d);
    auto split = make_fwd_cuda_engine(slots);
    compare(*split, fp, b, tally);
    auto global = make_fwd_cuda_engine_ex(slots, 1 << 20);  // ~3 dozen targets a launch
    compare(*global, fp, b, tally);
    CHECK(tally.bad == 0);
}
