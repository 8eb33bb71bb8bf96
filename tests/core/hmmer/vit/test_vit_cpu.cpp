// The optimized CPU Viterbi filter against the scalar reference, exactly:
// every entry of the variant table by name (vit_cpu_variants) and the
// threaded engine (1, 2, 3 threads), on fresh random models (random HMMs
// and real Pfam models) and sequences (homologs sampled from the model,
// hmmemit homologs, random codes with the -inf codes 20/27/28), with model
// sizes around the 8- and 16-lane stripe boundaries up to M = 5000, and
// target lengths 0, 1, 2, mixed and one of 120,000.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/profile.hpp"
#include "core/hmmer/vit/vit_cpu.hpp"
#include "core/hmmer/vit/vit_profile.hpp"
#include "core/hmmer/vit/vit_reference.hpp"
#include "hmmer_test_support.hpp"
#include "simd_test_support.hpp"
#include "test_support.hpp"
#include "vit_random.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

struct Outcomes {
    long overflow = 0, nopath = 0, ordinary = 0, compared = 0;
};

SeqBatch to_batch(const std::vector<std::vector<uint8_t>>& seqs) {
    SeqBatch b;
    for (size_t i = 0; i < seqs.size(); ++i) {
        b.residues.insert(b.residues.end(), seqs[i].begin(), seqs[i].end());
        b.close_record("s" + std::to_string(i), "");
    }
    return b;
}

// Scores every sequence with the reference and every CPU form; all must agree.
void compare_all(const VitWordProfile& wp, const std::vector<std::vector<uint8_t>>& seqs, Outcomes& oc) {
    std::vector<uint32_t> want(seqs.size());
    for (size_t i = 0; i < seqs.size(); ++i) {
        want[i] = vit_reference(wp, seqs[i]);
        oc.overflow += want[i] == kVitOverflow;
        oc.nopath += want[i] == kVitNoPath;
        oc.ordinary += want[i] < 65536;
    }
    const std::vector<VitCpuVariant> variants = runnable_variants(vit_cpu_variants());
    for (const VitCpuVariant& v : variants) {
        CAPTURE(v.name);
        VitCpuScorer sc(v, wp);
        for (size_t i = 0; i < seqs.size(); ++i) {
            CAPTURE(i);
            CAPTURE(seqs[i].size());
            REQUIRE(sc.score(seqs[i]) == want[i]);
            ++oc.compared;
        }
    }
    const SeqBatch batch = to_batch(seqs);
    std::vector<uint32_t> which(seqs.size());
    for (size_t i = 0; i < which.size(); ++i) which[i] = static_cast<uint32_t>(which.size() - 1 - i);  // any order
    for (const VitCpuVariant& v : variants) {
        for (unsigned threads : {1u, 2u, 3u}) {
            CAPTURE(v.name);
            CAPTURE(threads);
            auto eng = make_vit_cpu_engine(threads, v);
            eng->load_targets(batch);
            std::vector<uint32_t> got(which.size(), 12345);
            eng->score(wp, which, got);
            for (size_t j = 0; j < which.size(); ++j) REQUIRE(got[j] == want[which[j]]);
        }
    }
    auto best = make_vit_cpu_engine(0);
    best->load_targets(batch);
    std::vector<uint32_t> got(which.size());
    best->score(wp, which, got);
    for (size_t j = 0; j < which.size(); ++j) REQUIRE(got[j] == want[which[j]]);
}

std::vector<std::vector<uint8_t>> targets_for(const Hmm& h, int n_hom, int max_rand) {
    std::vector<std::vector<uint8_t>> s;
    s.push_back({});                                           // L = 0
    s.push_back(random_vit_codes(1));                          // L = 1
    s.push_back(random_vit_codes(2));                          // L = 2
    s.push_back({27});                                         // only -inf codes: no path
    s.push_back({20, 28, 27, 20});
    s.push_back({static_cast<uint8_t>(uniform(0, 19))});
    for (int i = 0; i < n_hom; ++i) s.push_back(sample_homolog(h, 60));
    for (int i = 0; i < 6; ++i) s.push_back(random_vit_codes(static_cast<size_t>(uniform(1, max_rand)), uniform(0, 30)));
    return s;
}

}  // namespace

TEST_CASE("CPU Viterbi variants and engine equal the reference on random HMMs") {
    seed();
    REQUIRE(cpu_supports(variant_by_name(vit_cpu_variants(), "vit_striped_sse2_i16").isa));
    MESSAGE("variants on this CPU: " << runnable_variants(vit_cpu_variants()).size());
    Outcomes oc;
    for (int M : {1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 1142, 3000, 5000}) {
        for (int rep = 0; rep < (M < 100 ? 4 : 1); ++rep) {
            CAPTURE(M);
            CAPTURE(rep);
            const float sharp = rep % 2 ? 1.0f : frand(5.0f, 40.0f);
            const Hmm h = random_vit_hmm(M, sharp);
            const VitWordProfile wp = build_vit_profile(build_profile(h));
            compare_all(wp, targets_for(h, M >= 1142 ? 6 : 10, M >= 1142 ? 400 : 1500), oc);
        }
    }
    MESSAGE("compared " << oc.compared << ": " << oc.overflow << " overflow, " << oc.nopath << " no path, "
                        << oc.ordinary << " ordinary (reference outcomes, per model/target)");
    CHECK(oc.overflow > 0);
    CHECK(oc.nopath > 0);
    CHECK(oc.ordinary > 0);
}

TEST_CASE("CPU Viterbi on a 120,000-residue target and a forced D->D chain") {
    Outcomes oc;
    const Hmm h = random_vit_hmm(100, 1.0f);
    const VitWordProfile wp = build_vit_profile(build_profile(h));
    compare_all(wp, {random_vit_codes(120000, 3)}, oc);
    // Nearly-certain deletes with strong emissions at the ends: best paths
    // cross many stripe boundaries through D states, so the closure must wrap.
    Hmm d = random_vit_hmm(200, 30.0f);
    for (int k = 1; k < d.M; ++k) {
        d.t[static_cast<size_t>(k)][kTMM] = 0.01f; d.t[static_cast<size_t>(k)][kTMI] = 0.01f; d.t[static_cast<size_t>(k)][kTMD] = 0.98f;
        d.t[static_cast<size_t>(k)][kTDM] = 0.02f; d.t[static_cast<size_t>(k)][kTDD] = 0.98f;
    }
    const VitWordProfile dp = build_vit_profile(build_profile(d));
    std::vector<std::vector<uint8_t>> seqs;
    for (int i = 0; i < 30; ++i) seqs.push_back(sample_homolog(d, 10));
    for (int i = 0; i < 10; ++i) seqs.push_back(random_vit_codes(static_cast<size_t>(uniform(1, 300))));
    compare_all(dp, seqs, oc);
    CHECK(oc.compared > 0);
}

TEST_CASE("CPU Viterbi equals the reference on Pfam models with hmmemit homologs") {
    Outcomes oc;
    TempDir dir;
    for (const std::string& path : {kHmmerTutorial + "fn3.hmm", kHmmerTutorial + "globins4.hmm",
                                   kHmmerTutorial + "Pkinase.hmm", kHmmerSuite + "RRM_1.hmm.gz"}) {
        CAPTURE(path);
        const Hmm h = read_all_hmms(path).at(0);
        const VitWordProfile wp = build_vit_profile(build_profile(h));
        const auto plain = dir.path() / "m.hmm";
        run_command("gzip -dcf " + path + " > " + plain.string());
        const auto em = parse_fasta(run_command("hmmemit -N 20 --seed " + std::to_string(uniform(1, 1000000)) + " " + plain.string()));
        const auto fl = parse_fasta(run_command("hmmemit -p -L 400 -N 10 --seed " + std::to_string(uniform(1, 1000000)) + " " + plain.string()));
        auto seqs = targets_for(h, 10, 2000);
        for (const auto& r : em) seqs.push_back(digitize_amino(r.seq));
        for (const auto& r : fl) seqs.push_back(digitize_amino(r.seq));
        compare_all(wp, seqs, oc);
    }
    MESSAGE("Pfam: " << oc.overflow << " overflow, " << oc.nopath << " no path, " << oc.ordinary << " ordinary");
    CHECK(oc.overflow > 0);
    CHECK(oc.ordinary > 0);
}
