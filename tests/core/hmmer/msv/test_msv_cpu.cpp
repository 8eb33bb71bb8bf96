// The CPU MSV engine against the scalar reference, exactly: every entry of
// the variant table by name (msv_cpu_variants) and each pass (SSV alone, full MSV alone, both), over model and
// target sizes chosen at vector-width boundaries, on fresh random profiles and
// targets each run; then the threaded engine at several thread counts. Each
// outcome class is counted so the comparisons cannot pass vacuously.
#include <doctest/doctest.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

#include "core/hmmer/msv/msv_cpu.hpp"
#include "core/hmmer/msv/msv_reference.hpp"
#include "msv_random.hpp"
#include "simd_test_support.hpp"

using namespace warpdp;
using warpdp::test::uniform;

namespace {

std::vector<MsvCpuVariant> variants() { return test::runnable_variants(msv_cpu_variants()); }

struct Outcomes {
    int ssv_value = 0, ssv_floor = 0, ssv_overflow = 0, fallback_j = 0, fallback_127 = 0, full_overflow = 0;
    void add(const MsvByteProfile& p, size_t L, uint16_t ssv, uint16_t both, uint16_t full) {
        if (ssv == kMsvOverflow) ++ssv_overflow;
        else if (ssv != kSsvNoResult) ++(ssv == full ? ssv_value : ssv_floor);  // floor: docs/hmmer-filters.md §5.3
        else if (msv_tjb(L) + p.tbm + p.tec + p.bias >= 127) ++fallback_127;
        else ++fallback_j;
        if (ssv == kSsvNoResult && both == kMsvOverflow) ++full_overflow;
    }
};

// Lengths at the boundaries that matter to the kernels (rows, SSV's periodic
// check) plus a few realistic ones.
std::vector<size_t> swept_lengths() {
    std::vector<size_t> Ls = {0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 350};
    for (int i = 0; i < 6; ++i) Ls.push_back(static_cast<size_t>(uniform(4, 1200)));
    return Ls;
}

void check_all_variants(const MsvByteProfile& p, const std::vector<std::vector<uint8_t>>& seqs, Outcomes& seen) {
    const auto vs = variants();
    std::vector<MsvStripedProfile> sps;
    for (const MsvCpuVariant& v : vs) sps.emplace_back(p, v.kernels.width);
    MsvCpuScratch scratch;
    for (const auto& s : seqs) {
        const uint16_t ssv = ssv_reference(p, s), full = msv_full_reference(p, s), both = msv_reference(p, s);
        seen.add(p, s.size(), ssv, both, full);
        for (size_t v = 0; v < vs.size(); ++v) {
            CAPTURE(vs[v].name);
            CAPTURE(p.M);
            CAPTURE(s.size());
            CAPTURE(static_cast<int>(p.bias));
            CHECK(msv_cpu_score_one(vs[v], p, sps[v], s, scratch, MsvPass::ssv) == ssv);
            CHECK(msv_cpu_score_one(vs[v], p, sps[v], s, scratch, MsvPass::full) == full);
            CHECK(msv_cpu_score_one(vs[v], p, sps[v], s, scratch, MsvPass::both) == both);
        }
    }
}

}  // namespace

TEST_CASE("every variant equals the reference pass by pass, across model and target sizes") {
    Outcomes seen;
    const int Ms[] = {1, 2, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 95, 96, 97,
                      127, 128, 129, 255, 256, 257, 400, 511, 512, 513, 2100};
    // multiples of W = 16, 32 +-1, and the Q = 8 / Q = 16 edges of the
    // register-resident kernels for both widths
    for (int M : Ms) {
        for (int model = 0; model < (M > 400 ? 1 : 3); ++model) {
            // The long model gets the top realistic bias so that its 5,000-residue
            // targets fail the 127 test (tjb 32 + tbm 63 + tec 3 + 30 >= 127).
            const MsvByteProfile p = test::random_msv_profile(M, M > 2000 ? 30 : -1);
            std::vector<std::vector<uint8_t>> seqs;
            for (size_t L : swept_lengths())
                for (int rep = 0; rep < (M > 400 ? 1 : 3); ++rep)
                    seqs.push_back(test::random_target(p, L, test::random_kind()));
            if (M > 2000)
                for (auto kind : {test::SeqKind::random, test::SeqKind::homolog})
                    seqs.push_back(test::random_target(p, 5000, kind));
            check_all_variants(p, seqs, seen);
        }
    }
    std::printf("# outcomes: ssv value %d, ssv floor value %d, ssv overflow %d, fallback (J) %d, "
                "fallback (127 test) %d, overflow after fallback %d\n",
                seen.ssv_value, seen.ssv_floor, seen.ssv_overflow, seen.fallback_j, seen.fallback_127,
                seen.full_overflow);
    CHECK(seen.ssv_value > 0);
    CHECK(seen.ssv_floor > 0);
    CHECK(seen.ssv_overflow > 0);
    CHECK(seen.fallback_j > 0);
    CHECK(seen.fallback_127 > 0);
    CHECK(seen.full_overflow > 0);
}

TEST_CASE("extreme biases and long models (M = 5000, long targets)") {
    Outcomes seen;
    for (int bias : {0, 1, 60, 126, 127, 200, 255}) {
        const int M = uniform(1, 70);
        const MsvByteProfile p = test::random_msv_profile(M, bias);
        std::vector<std::vector<uint8_t>> seqs;
        for (size_t L : swept_lengths()) seqs.push_back(test::random_target(p, L, test::random_kind()));
        check_all_variants(p, seqs, seen);
    }
    const MsvByteProfile big = test::random_msv_profile(5000);
    check_all_variants(big, {test::random_target(big, 300, test::SeqKind::random),
                             test::random_target(big, 40000, test::SeqKind::random),
                             test::random_target(big, 3000, test::SeqKind::homolog)},
                       seen);
    CHECK(seen.fallback_127 > 0);
}

TEST_CASE("the threaded engine equals the reference for any thread count") {
    Outcomes seen;
    for (int M : {65, 400}) {
        const MsvByteProfile p = test::random_msv_profile(M);
        SeqBatch batch;
        auto add = [&](const std::vector<uint8_t>& s) {
            batch.residues.insert(batch.residues.end(), s.begin(), s.end());
            batch.close_record(std::to_string(batch.size()), "");
        };
        for (int i = 0; i < 300; ++i) add(test::random_target(p, static_cast<size_t>(uniform(0, 700)), test::random_kind()));
        add(test::random_target(p, 150000, M == 65 ? test::SeqKind::random : test::SeqKind::homolog));
        add({});
        for (int i = 0; i < 100; ++i) add(test::random_target(p, static_cast<size_t>(uniform(0, 3)), test::random_kind()));

        std::vector<uint16_t> ref(batch.size());
        for (size_t t = 0; t < batch.size(); ++t) {
            ref[t] = msv_reference(p, batch.seq(t));
            seen.add(p, batch.length(t), ssv_reference(p, batch.seq(t)), ref[t], msv_full_reference(p, batch.seq(t)));
        }
        std::vector<std::unique_ptr<MsvEngine>> engines;
        engines.push_back(make_msv_cpu_engine(0));
        for (const MsvCpuVariant& v : variants())
            for (unsigned threads : {1u, 2u, 3u}) engines.push_back(make_msv_cpu_engine(threads, v));
        for (auto& e : engines) {
            CAPTURE(e->name());
            CAPTURE(M);
            e->load_targets(batch);
            std::vector<uint16_t> out(batch.size(), 0x1234);
            e->score(p, out);
            CHECK(out == ref);
            std::vector<uint16_t> wrong(batch.size() + 1);
            CHECK_THROWS_AS(e->score(p, wrong), std::invalid_argument);
        }
    }
    CHECK(seen.ssv_value > 0);
    CHECK(seen.fallback_127 + seen.fallback_j > 0);
}

TEST_CASE("score_each gives each profile's results, in order, as score() does") {
    std::vector<MsvByteProfile> profiles;
    for (int M : {30, 400, 7}) profiles.push_back(test::random_msv_profile(M));
    SeqBatch batch;
    for (int i = 0; i < 200; ++i) {
        const auto s = test::random_target(profiles[i % 3], static_cast<size_t>(uniform(0, 500)), test::random_kind());
        batch.residues.insert(batch.residues.end(), s.begin(), s.end());
        batch.close_record(std::to_string(i), "");
    }
    std::vector<const MsvByteProfile*> ptrs;
    for (const auto& p : profiles) ptrs.push_back(&p);
    std::vector<std::unique_ptr<MsvEngine>> engines;
    engines.push_back(make_msv_cpu_engine(3));
    engines.push_back(make_msv_reference_engine());
    for (auto& e : engines) {
        CAPTURE(e->name());
        e->load_targets(batch);
        CHECK(e->resident_targets() == batch.size());
        std::vector<size_t> order;
        e->score_each(ptrs, [&](size_t i, std::span<const uint16_t> raw) {
            order.push_back(i);
            std::vector<uint16_t> want(batch.size());
            for (size_t t = 0; t < batch.size(); ++t) want[t] = msv_reference(profiles[i], batch.seq(t));
            CHECK(std::vector<uint16_t>(raw.begin(), raw.end()) == want);
        });
        CHECK(order == std::vector<size_t>{0, 1, 2});
    }
}

TEST_CASE("misuse is reported, not undefined") {
    const MsvByteProfile p = test::random_msv_profile(20);
    const MsvStripedProfile narrow(p, 16);
    MsvCpuScratch scratch;
    const std::vector<uint8_t> s = test::random_residues(10);
    // Each variant refuses a profile built for another width.
    for (const MsvCpuVariant& v : variants()) {
        CAPTURE(v.name);
        const MsvStripedProfile other(p, v.kernels.width == 16 ? 32 : 16);
        CHECK_THROWS_AS(msv_cpu_score_one(v, p, other, s, scratch), std::invalid_argument);
    }
#if defined(__x86_64__)
    const MsvCpuVariant& avx2 = variant_by_name(msv_cpu_variants(), "msv_striped_avx2_u8");
    const MsvCpuVariant& sse2 = variant_by_name(msv_cpu_variants(), "msv_striped_sse2_u8");
    if (cpu_supports(avx2.isa)) CHECK_THROWS_AS(msv_cpu_score_one(avx2, p, narrow, s, scratch), std::invalid_argument);
    const MsvStripedProfile wide(p, 32);
    if (cpu_supports(sse2.isa)) CHECK_THROWS_AS(msv_cpu_score_one(sse2, p, wide, s, scratch), std::invalid_argument);
    // A variant this CPU lacks is refused, not run.
    if (!cpu_supports(avx2.isa)) {
        CHECK_THROWS_AS(msv_cpu_score_one(avx2, p, wide, s, scratch), std::invalid_argument);
        CHECK_THROWS_AS(make_msv_cpu_engine(1, avx2), std::invalid_argument);
    }
#endif
    CHECK_THROWS_AS(variant_by_name(msv_cpu_variants(), "msv_striped_avx512_u8"), std::invalid_argument);
    MsvByteProfile broken = p;
    broken.cost.pop_back();
    CHECK_THROWS_AS(MsvStripedProfile(broken, 16), std::invalid_argument);
    CHECK(cpu_supports(CpuIsa::base));
    CHECK(cpu_supports(choose_variant<msv_cpu_variants>().isa));
    CHECK(&choose_variant<msv_cpu_variants>() == &best_supported(msv_cpu_variants()));
}
