// Jobs of several models in one list, for the tests of the CUDA post-filter
// engine and of its kernel run on the host (tests/kernels/dom): random
// models of the given sizes, each model's mixed jobs (dom_cuda_test_support's
// mixed_jobs) tagged with its index and shuffled together, and the CPU
// forms' results of each job on its own model.
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include "core/hmmer/profile.hpp"
#include "dom_cuda_test_support.hpp"

namespace warpdp::test {

struct ModelSet {
    std::vector<FwdProfile> fps;
    std::vector<const FwdProfile*> ptrs;  // fps' addresses, for set_models
    std::vector<std::vector<std::vector<uint8_t>>> targets;
    std::vector<DomCudaJob> jobs;  // every model's, shuffled, job.model its model
};

inline ModelSet model_set(std::span<const int> sizes, int max_rand) {
    ModelSet s;
    s.fps.reserve(sizes.size());
    for (int M : sizes) {
        const Hmm h = random_vit_hmm(M, frand(5.0f, 40.0f));
        s.fps.push_back(build_fwd_profile(build_profile(h)));
        s.targets.push_back(targets_for(h, max_rand));
    }
    for (uint32_t m = 0; m < sizes.size(); ++m) {
        s.ptrs.push_back(&s.fps[m]);
        for (DomCudaJob j : mixed_jobs(s.targets[m])) {
            j.model = m;
            s.jobs.push_back(j);
        }
    }
    std::shuffle(s.jobs.begin(), s.jobs.end(), rng());
    return s;
}

// cpu_results for jobs of several models, each on its own.
inline std::vector<Want> cpu_results(std::span<const FwdProfile* const> models, const std::vector<DomCudaJob>& jobs) {
    std::vector<Want> out(jobs.size());
    for (uint32_t m = 0; m < models.size(); ++m) {
        std::vector<DomCudaJob> mine;
        std::vector<size_t> at;
        for (size_t j = 0; j < jobs.size(); ++j)
            if (jobs[j].model == m) {
                mine.push_back(jobs[j]);
                at.push_back(j);
            }
        std::vector<Want> w = cpu_results(*models[m], mine);
        for (size_t k = 0; k < at.size(); ++k) out[at[k]] = std::move(w[k]);
    }
    return out;
}

}  // namespace warpdp::test
