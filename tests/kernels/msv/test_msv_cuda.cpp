// The CUDA MSV engine against the scalar reference (core/hmmer/msv/msv_reference), bit
// for bit, on fresh random profiles and targets every run (seed printed,
// replay with WARPDP_TEST_SEED). Sizes are swept on purpose around the SSV
// kernels' tile widths and row blocks; every kernel variant is also forced by
// name; one device vs several slots must agree. Skips (77) without a GPU.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/msv/msv_reference.hpp"
#include "kernels/common/gpus.hpp"
#include "kernels/msv/msv_cuda.hpp"
#include "msv_cuda_test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

// Returns the number of mismatches (and reports the first few).
size_t compare(MsvCudaEngine& eng, const RandomMsvModel& m, const SeqBatch& b, OutcomeCounts* counts,
               const std::string& what) {
    std::vector<uint16_t> got(b.size(), 0xABCD);  // poison: not a valid MSV result
    eng.score(m.prof, got);
    const auto ref = reference_scores(m.prof, b, counts);
    size_t bad = 0;
    for (size_t t = 0; t < b.size(); ++t) {
        if (got[t] == ref[t]) continue;
        if (++bad <= 5)
            MESSAGE(what << " M=" << m.prof.M << " bias=" << int(m.prof.bias) << " variant="
                         << eng.last_stats().variant << " target " << t << " L=" << b.length(t) << ": got "
                         << got[t] << " want " << ref[t]);
    }
    return bad;
}

// Lengths around row-block boundaries, mixed random lengths, homologs of `m`.
SeqBatch sweep_batch(const RandomMsvModel& m, int n_random) {
    SeqBatch b;
    const size_t edges[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257};
    for (size_t L : edges) {
        add_record(b, random_seq(L));
        add_record(b, homolog_seq(m, L, 1, 12));
    }
    for (int i = 0; i < n_random; ++i) {
        const size_t L = lognormal_length(5.0, 0.8, 3000);
        const int kind = uniform(0, 3);
        if (kind == 0) add_record(b, random_seq(L));
        else add_record(b, homolog_seq(m, L, uniform(1, 3), kind == 3 ? 25 : 10));
    }
    return b;
}

}  // namespace

TEST_CASE("CUDA MSV == reference across model and target sizes") {
    require_gpu();
    auto eng = make_msv_cuda_engine_ex({0});
    const int Ms[] = {1, 2, 3, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 159, 160, 161, 191, 192, 193, 255, 256, 257, 319, 320, 321,
                      383, 384, 385, 400, 511, 512, 513, 639, 640, 641, 767, 768, 769, 895, 896, 897, 1023, 1024, 1025, 1279, 1280, 1281, 1535,
                      1536, 1537, 1791, 1792, 1793, 2047, 2048, 2049, 2100, 4096, 4097, 5000};
    OutcomeCounts counts;
    size_t bad = 0, cells = 0;
    for (int M : Ms) {
        const auto m = random_msv_model(M);
        const auto b = sweep_batch(m, M > 2000 ? 60 : 120);
        eng->load_targets(b);
        bad += compare(*eng, m, b, &counts, "sweep");
        cells += static_cast<size_t>(M) * b.total_residues();
    }
    for (int M : {65, 400, 2500}) {  // bias > 64: the full MSV needs the saturating block kernel
        const auto m = random_msv_model(M, uniform(65, 90));
        const auto b = sweep_batch(m, 100);
        eng->load_targets(b);
        bad += compare(*eng, m, b, &counts, "high bias");
    }
    MESSAGE("sweep: " << cells << " cells; outcomes: ssv value " << counts.ssv_value << ", full-MSV fallback "
                      << counts.fallback << " (value " << counts.fallback_value << "), overflow "
                      << counts.overflow);
    CHECK(bad == 0);
    CHECK(counts.ssv_value > 0);
    CHECK(counts.fallback_value > 0);
    CHECK(counts.overflow > 0);
}

TEST_CASE("CUDA MSV == reference on every SSV variant forced by name") {
    require_gpu();
    auto eng = make_msv_cuda_engine_ex({0});
    size_t bad = 0;
    for (const auto& name : msv_cuda_variants()) {
        // g<G>_s<S>: width = G * S nodes per tile.
        const int G = std::stoi(name.substr(name.find("_g") + 2));
        const int S = std::stoi(name.substr(name.find("_s") + 2));
        const bool tiled = name.find("tiled") != std::string::npos;
        const int width = G * S;
        const int M = tiled ? uniform(width + 1, 3 * width) : uniform(std::max(1, width / 2), width);
        const auto m = random_msv_model(M);
        const auto b = sweep_batch(m, 80);
        eng->load_targets(b);
        eng->force_variant(name);
        bad += compare(*eng, m, b, nullptr, name);
        CHECK(eng->last_stats().variant == name);
    }
    eng->force_variant("");
    CHECK(bad == 0);
}

TEST_CASE("CUDA MSV == reference on a 150,000-residue target") {
    require_gpu();
    auto eng = make_msv_cuda_engine_ex({0});
    size_t bad = 0;
    for (int M : {33, 2100, 5000}) {
        const auto m = random_msv_model(M);
        SeqBatch b;
        add_record(b, random_seq(150000));
        add_record(b, homolog_seq(m, 150000, 1, 6));
        for (int i = 0; i < 30; ++i) add_record(b, homolog_seq(m, lognormal_length(5.5, 0.5, 2000), 1, 8));
        eng->load_targets(b);
        bad += compare(*eng, m, b, nullptr, "long");
    }
    CHECK(bad == 0);
}

TEST_CASE("CUDA MSV: one device, all devices and split slots agree, with or without a chunk hint") {
    require_gpu();
    std::vector<int> all;
    for (const auto& g : list_gpus()) all.push_back(g.index);
    auto one = make_msv_cuda_engine_ex({0});
    auto many = make_msv_cuda_engine_ex(all);
    // Repeating device 0 gives several slots on one GPU: the split and the
    // scatter back to input order are exercised even on a one-GPU machine.
    auto split = make_msv_cuda_engine_ex({all.front(), all.back(), all.front()});
    // A chunk-size hint (the tools give one while reading) changes nothing,
    // whether the chunks then come larger or smaller than it said.
    many->expect_chunk_residues(20000);
    split->expect_chunk_residues(1u << 20);
    for (int M : {64, 300, 2500}) {
        const auto m = random_msv_model(M);
        const auto b = sweep_batch(m, 300);
        one->load_targets(b);
        many->load_targets(b);
        split->load_targets(b);
        std::vector<uint16_t> a(b.size()), c(b.size()), d(b.size());
        one->score(m.prof, a);
        many->score(m.prof, c);
        split->score(m.prof, d);
        CHECK(a == c);
        CHECK(a == d);
        CHECK(a == reference_scores(m.prof, b));
    }
}

TEST_CASE("CUDA MSV: score_each gives every profile's results in order, however many are queued") {
    require_gpu();
    // More profiles than the engine queues at once, of every kernel shape
    // (register tiles, tiled models, the high-bias fallback), sizes growing
    // and shrinking so the queued tables change size between models; one
    // slot and split slots.
    std::vector<RandomMsvModel> models;
    for (int M : {40, 700, 2500, 1, 300, 129, 1600, 90})
        models.push_back(random_msv_model(M, M == 129 ? uniform(65, 90) : 0));
    std::vector<const MsvByteProfile*> profiles;
    for (const auto& m : models) profiles.push_back(&m.prof);
    const auto b = sweep_batch(models[0], 400);
    for (const std::vector<int>& devices : {std::vector<int>{0}, std::vector<int>{0, 0, 0}}) {
        CAPTURE(devices.size());
        auto eng = make_msv_cuda_engine_ex(devices);
        eng->load_targets(b);
        std::vector<size_t> order;
        eng->score_each(profiles, [&](size_t i, std::span<const uint16_t> raw) {
            order.push_back(i);
            CHECK(std::vector<uint16_t>(raw.begin(), raw.end()) == reference_scores(models[i].prof, b));
        });
        CHECK(order == std::vector<size_t>{0, 1, 2, 3, 4, 5, 6, 7});
        // score() after score_each, and score_each of one profile or of none.
        std::vector<uint16_t> got(b.size());
        eng->score(models[2].prof, got);
        CHECK(got == reference_scores(models[2].prof, b));
        size_t calls = 0;
        eng->score_each(std::span(profiles).first(1), [&](size_t, std::span<const uint16_t> raw) {
            ++calls;
            CHECK(std::vector<uint16_t>(raw.begin(), raw.end()) == reference_scores(models[0].prof, b));
        });
        eng->score_each({}, [&](size_t, std::span<const uint16_t>) { ++calls; });
        CHECK(calls == 1);
    }
}

TEST_CASE("CUDA MSV: an empty chunk, chunk sizing, a missing device") {
    require_gpu();
    auto eng = make_msv_cuda_engine_ex({0});
    SeqBatch empty;
    eng->load_targets(empty);
    std::vector<uint16_t> none;
    const auto m = random_msv_model(50);
    eng->score(m.prof, none);
    const MsvByteProfile* one[] = {&m.prof};
    size_t calls = 0;
    eng->score_each(one, [&](size_t, std::span<const uint16_t> raw) { calls += 1 + raw.size(); });
    CHECK(calls == 1);
    CHECK(msv_cuda_max_chunk_residues(0) > 1000000);
    CHECK_THROWS_AS(make_msv_cuda_engine_ex({999}), ResourceError);
}
