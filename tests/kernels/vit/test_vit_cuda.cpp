// The CUDA Viterbi-filter engine against the scalar reference
// (core/hmmer/vit/vit_reference), exactly, on fresh random models and targets
// every run (seed printed, replay with WARPDP_TEST_SEED): model sizes swept
// around the kernel's lane stripes and tiles up to M = 5000, target lengths
// 0, 1, 2, edges and one of 120,000, shuffled subsets, 1 slot vs several;
// each outcome class (finite, overflow, no path) must occur; every kernel
// instance is also forced by name, in one tile and tiled, int32 and packed
// 16-bit (which takes the pairs core/hmmer/vit/vit_word16 proves safe), on
// ordinary models and on models whose best paths run through long D->D
// chains. Skips (77) without a GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/profile.hpp"
#include "cuda_test_support.hpp"
#include "kernels/common/gpus.hpp"
#include "kernels/vit/vit_cuda.hpp"
#include "vit_cuda_test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

struct Outcomes {
    uint64_t finite = 0, overflow = 0, nopath = 0, compared = 0, bad = 0;
};

// Scores a shuffled subset (or all) of `b` with `eng` and the reference; counts mismatches.
void compare(VitEngine& eng, const VitWordProfile& wp, const SeqBatch& b, bool all, Outcomes& oc,
             const char* what) {
    const auto which = shuffled_subset(b.size(), all);
    std::vector<uint32_t> got(which.size(), 0xABCDu);  // poison: not a raw result of any target
    eng.score(wp, which, got);
    const auto want = vit_reference_scores(wp, b, which);
    for (size_t j = 0; j < which.size(); ++j) {
        ++oc.compared;
        oc.finite += want[j] < 65536;
        oc.overflow += want[j] == kVitOverflow;
        oc.nopath += want[j] == kVitNoPath;
        if (got[j] == want[j]) continue;
        if (++oc.bad <= 8)
            MESSAGE("MISMATCH " << what << " M=" << wp.M << " target " << which[j] << " L="
                                << b.length(which[j]) << ": got " << got[j] << " want " << want[j]);
    }
}

// Near-certain deletes: best paths cross lanes and tiles through D states, so
// the 16-bit kernel's one-hop D entry is wrong and its exact scan must run.
Hmm dd_chain_hmm(int M) {
    Hmm d = random_vit_hmm(M, 30.0f);
    for (int k = 1; k < d.M; ++k) {
        auto& t = d.t[static_cast<size_t>(k)];
        t[kTMM] = 0.01f; t[kTMI] = 0.01f; t[kTMD] = 0.98f; t[kTDM] = 0.02f; t[kTDD] = 0.98f;
    }
    return d;
}

SeqBatch dd_chain_batch(const Hmm& d) {
    SeqBatch b;
    for (int i = 0; i < 60; ++i) add_vit_record(b, sample_homolog(d, 10));
    for (int i = 0; i < 20; ++i) add_vit_record(b, random_vit_codes(static_cast<size_t>(uniform(1, 300))));
    return b;
}

}  // namespace

TEST_CASE("CUDA Viterbi == reference across model and target sizes") {
    require_gpu();
    auto eng = make_vit_cuda_engine_ex({0});
    Outcomes oc;
    uint64_t packed = 0;
    const int sizes[] = {1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 400,
                         511, 512, 513, 1023, 1024, 1025, 1142, 3000, 5000};
    for (int M : sizes) {
        for (int rep = 0; rep < 2; ++rep) {
            const float sharp = rep == 0 ? frand(5.0f, 40.0f) : 1.0f;
            const Hmm h = random_vit_hmm(M, sharp);
            const VitWordProfile wp = build_vit_profile(build_profile(h));
            const SeqBatch b = vit_sweep_batch(h, M >= 3000 ? 40 : 120, M >= 3000 ? 600 : 1500);
            eng->load_targets(b);
            compare(*eng, wp, b, rep == 0, oc, "sweep");
            packed += eng->last_stats().targets16;
        }
    }
    MESSAGE("sweep: " << packed << " targets took the 16-bit kernel");
    CHECK(packed > 0);
    MESSAGE("sweep: compared " << oc.compared << ": " << oc.finite << " finite, " << oc.overflow << " overflow, "
                               << oc.nopath << " no path, " << oc.bad << " mismatches");
    CHECK(oc.bad == 0);
    CHECK(oc.finite > 0);
    CHECK(oc.overflow > 0);
    CHECK(oc.nopath > 0);
}

TEST_CASE("CUDA Viterbi: every kernel instance by name, one tile and tiled") {
    require_gpu();
    auto eng = make_vit_cuda_engine_ex({0});
    Outcomes oc;
    for (const std::string& name : vit_cuda_variants()) {
        const bool packed = name.rfind("vit16_", 0) == 0;  // two nodes per word
        const int G = std::stoi(name.substr(name.find("_g") + 2)), S = std::stoi(name.substr(name.find("_s") + 2));
        const int width = (packed ? 2 : 1) * G * S;
        for (int M : {std::max(1, width - uniform(0, 2)), 2 * width + 1}) {
            const Hmm h = random_vit_hmm(M, frand(1.0f, 30.0f));
            const VitWordProfile wp = build_vit_profile(build_profile(h));
            const SeqBatch b = vit_sweep_batch(h, 50, 700);
            eng->load_targets(b);
            eng->force_variant(name);
            compare(*eng, wp, b, false, oc, name.c_str());
            const VitCudaStats st = eng->last_stats();
            CHECK((packed ? st.variant16 : st.variant) == name);
            CHECK((packed ? st.tiles16 : st.tiles) == (M + width - 1) / width);
            if (packed) CHECK(st.targets16 > 0);
            else CHECK(st.targets16 == 0);
            const Hmm d = dd_chain_hmm(M);
            const SeqBatch db = dd_chain_batch(d);
            eng->load_targets(db);
            compare(*eng, build_vit_profile(build_profile(d)), db, true, oc, name.c_str());
            if (packed) CHECK(eng->last_stats().targets16 > 0);
        }
    }
    eng->force_variant("");
    MESSAGE("variants: compared " << oc.compared << ": " << oc.finite << " finite, " << oc.overflow
                                  << " overflow, " << oc.nopath << " no path, " << oc.bad << " mismatches");
    CHECK(oc.bad == 0);
    CHECK(oc.overflow > 0);
    CHECK(oc.nopath > 0);
}

TEST_CASE("CUDA Viterbi: 120,000-residue target, D->D chains, several slots") {
    require_gpu();
    Outcomes oc;
    for (int M : {200, 1142}) {
        const Hmm d = dd_chain_hmm(M);
        const VitWordProfile dp = build_vit_profile(build_profile(d));
        const SeqBatch b = dd_chain_batch(d);
        auto eng = make_vit_cuda_engine_ex({0});
        eng->load_targets(b);
        compare(*eng, dp, b, true, oc, "ddchain");
    }
    const Hmm h = random_vit_hmm(100, 1.0f);
    const VitWordProfile wp = build_vit_profile(build_profile(h));
    const Hmm h2 = random_vit_hmm(1142, 1.0f);
    const VitWordProfile wp2 = build_vit_profile(build_profile(h2));
    SeqBatch b = vit_sweep_batch(h, 300, 2000);
    add_vit_record(b, random_vit_codes(120000, 3));
    std::vector<uint32_t> all(b.size());
    for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    std::vector<std::vector<uint32_t>> results;
    int ngpu = static_cast<int>(list_gpus().size());
    std::vector<int> every;
    for (int g = 0; g < ngpu; ++g) every.push_back(g);
    for (const std::vector<int>& devs : {std::vector<int>{0}, std::vector<int>{0, 0, 0}, every}) {
        auto eng = make_vit_cuda_engine_ex(devs);
        eng->load_targets(b);
        compare(*eng, wp, b, true, oc, "long");
        compare(*eng, wp2, b, false, oc, "long-1142");
        std::vector<uint32_t> got(all.size());
        eng->score(wp, all, got);
        results.push_back(got);
    }
    CHECK(results[0] == results[1]);
    CHECK(results[0] == results[2]);
    MESSAGE("long/slots: compared " << oc.compared << ", " << oc.bad << " mismatches");
    CHECK(oc.bad == 0);
}

TEST_CASE("CUDA Viterbi: targets either side of the 16-bit path's longest safe length") {
    require_gpu();
    auto eng = make_vit_cuda_engine_ex({0});
    Outcomes oc;
    uint64_t packed = 0, total = 0;
    for (int rep = 0; rep < 4; ++rep) {
        const Hmm h = random_vit_hmm(uniform(20, 400), frand(1.0f, 10.0f));
        VitWordProfile wp = build_vit_profile(build_profile(h));
        const Vit16Plan plan = limit_safe_length(wp, static_cast<uint64_t>(uniform(500, 3000)));
        REQUIRE(plan.ok);
        SeqBatch b;
        for (uint64_t L : {plan.max_len - 1, plan.max_len, plan.max_len + 1, 2 * plan.max_len, uint64_t{7}})
            add_vit_record(b, random_vit_codes(static_cast<size_t>(L), 0));
        eng->load_targets(b);
        compare(*eng, wp, b, true, oc, "edge");
        packed += eng->last_stats().targets16;
        total += b.size();
    }
    MESSAGE("edge: " << packed << " of " << total << " targets took the 16-bit kernel, " << oc.bad << " mismatches");
    CHECK(oc.bad == 0);
    CHECK(packed == 3 * 4);  // max_len - 1, max_len and 7; the longer two take the int32 kernel
}

TEST_CASE("CUDA Viterbi on Pfam tutorial models (when installed)") {
    require_gpu();
    const std::string dir = "/usr/share/doc/hmmer/examples/tutorial/";
    Outcomes oc;
    auto eng = make_vit_cuda_engine_ex({0});
    // Amino models only: vit_sweep_batch draws amino codes.
    for (const char* f : {"fn3.hmm", "globins4.hmm", "Pkinase.hmm"}) {
        const std::string path = dir + f;
        if (!std::filesystem::exists(path)) continue;
        const Hmm h = read_all_hmms(path).at(0);
        const VitWordProfile wp = build_vit_profile(build_profile(h));
        const SeqBatch b = vit_sweep_batch(h, 200, 1000);
        eng->load_targets(b);
        compare(*eng, wp, b, false, oc, f);
    }
    MESSAGE("pfam: compared " << oc.compared << ", " << oc.bad << " mismatches (0 compared: examples absent)");
    CHECK(oc.bad == 0);
}
