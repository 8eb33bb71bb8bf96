// The CUDA gpu-nussinov engine against the reference engine, scores,
// structures and pair counts exactly, on fresh random RNA every run (seed
// printed, replay with WARPDP_TEST_SEED): every kernel instance by name,
// lengths swept across warp, word and tile boundaries (1, 2, 31..33, 127..129,
// 255..257, ...), min_loop 0/1/3, wobble pairs on and off, unit weights,
// typed weights, zero weights and weights large enough to need 32-bit cells,
// N letters; the default choice on a mixed batch (lengths 0 and 1, short and
// long) over one slot and several (one GPU repeated, and all GPUs); mixed
// lengths in one call at and around every place the launch shape changes
// (each batch class limit of docs/nussinov.md §10.2, the batch/tiles limit,
// moved by set_batch_max_length too, tile edges, a lone run of 17 tiles
// that takes the 16-tile sequences padded); long sequences, their structures traced on the GPU, against the
// reference (~2,500) and the CPU engine (6,000, zero weights, four of 18-19
// tiles in one run); and the
// refusals (16-bit instance for scores beyond 16 bits, a sequence past the
// card's length limit). Every structure must equal the reference's (the
// one traceback rule, docs/nussinov.md §4): a mismatch names the sequence,
// its length, both scores and the first differing position. Skips (77)
// without a GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/base/errors.hpp"
#include "core/nussinov/nussinov_cpu.hpp"
#include "core/nussinov/nussinov_engine.hpp"
#include "core/nussinov/nussinov_traceback.hpp"
#include "cuda_test_support.hpp"
#include "kernels/common/gpus.hpp"
#include "kernels/nussinov/nussinov_cuda.hpp"
#include "test_support.hpp"

using namespace warpdp;
using warpdp::test::require_gpu;
using warpdp::test::uniform;

namespace {

// Random engine codes: mostly A C G U, now and then another letter (N).
std::vector<uint8_t> random_rna(size_t n, int other_percent = 3) {
    std::vector<uint8_t> s(n);
    for (auto& c : s) c = uniform(0, 99) < other_percent ? kRnaOther : static_cast<uint8_t>(uniform(0, 3));
    return s;
}

struct Tally {
    uint64_t compared = 0, bad = 0;
};

std::string describe(const NussinovParams& p) {
    return "min_loop=" + std::to_string(p.min_loop) + (p.gu ? " gu" : " no-gu") + " w=" + std::to_string(p.w_gc) + "/" +
           std::to_string(p.w_au) + "/" + std::to_string(p.w_gu);
}

// Folds `seqs` with both engines and compares everything; poisons the CUDA
// outputs first so an unwritten result shows. With `cpu`, sequences longer
// than ref_max_n take the CPU engine's results as the reference (the
// reference engine's O(n^3) int64 table is slow there; the CPU engine is
// checked against it by its own tests), all still folded by the GPU in one call.
void compare(NussinovEngine& gpu, NussinovEngine& ref, const std::vector<std::vector<uint8_t>>& seqs,
             const NussinovParams& p, bool with_structure, const std::string& what, Tally& t,
             NussinovEngine* cpu = nullptr, size_t ref_max_n = 0) {
    std::vector<std::span<const uint8_t>> spans(seqs.begin(), seqs.end());
    std::vector<NussinovFold> got(seqs.size()), want(seqs.size());
    for (auto& f : got) f.score = -12345, f.pairs = 999999, f.structure = "poison";
    gpu.fold(spans, p, with_structure, got);
    if (cpu == nullptr) {
        ref.fold(spans, p, with_structure, want);
    } else {
        for (size_t k = 0; k < seqs.size(); ++k)
            (seqs[k].size() > ref_max_n ? *cpu : ref).fold(std::span(spans).subspan(k, 1), p, with_structure,
                                                           std::span(want).subspan(k, 1));
    }
    for (size_t k = 0; k < seqs.size(); ++k) {
        ++t.compared;
        bool ok = got[k].score == want[k].score;
        if (with_structure) {
            ok = ok && got[k].structure == want[k].structure && got[k].pairs == want[k].pairs;
            const auto check = nussinov_check_structure(seqs[k], p, got[k].structure);
            ok = ok && check.ok() && check.score == got[k].score;
        }
        if (ok) continue;
        if (++t.bad <= 8) {
            size_t at = 0;
            while (at < got[k].structure.size() && at < want[k].structure.size() && got[k].structure[at] == want[k].structure[at])
                ++at;
            MESSAGE("MISMATCH " << what << " " << describe(p) << " seq " << k << " n=" << seqs[k].size() << ": got score "
                                << got[k].score << " pairs " << got[k].pairs << ", want " << want[k].score << " pairs "
                                << want[k].pairs << (with_structure ? ", structures differ from position " + std::to_string(at) : ""));
            if (with_structure && seqs[k].size() <= 300)
                MESSAGE("  got  " << got[k].structure << "\n  want " << want[k].structure);
        }
    }
}

std::vector<NussinovParams> param_sets(bool with_wide) {
    std::vector<NussinovParams> v;
    for (int min_loop : {0, 1, 3})
        for (bool gu : {true, false}) {
            NussinovParams p;
            p.min_loop = min_loop;
            p.gu = gu;
            v.push_back(p);  // unit weights: maximum pairs
            p.w_gc = 3, p.w_au = 2, p.w_gu = 1;
            v.push_back(p);
        }
    NussinovParams z;  // zero weights: pairs that score nothing, traceback ties
    z.w_gc = 2, z.w_au = 0, z.w_gu = 0;
    v.push_back(z);
    if (with_wide) {
        NussinovParams w;  // 32-bit cells from 6 bases on (30000 * 3 > 65535), 16-bit below
        w.w_gc = 30000, w.w_au = 20000, w.w_gu = 7;
        w.min_loop = 1;
        v.push_back(w);
        w.min_loop = 0;
        w.gu = false;
        v.push_back(w);
    }
    return v;
}

std::vector<int> all_devices() {
    std::vector<int> d;
    for (const auto& g : list_gpus()) d.push_back(g.index);
    return d;
}

}  // namespace

TEST_CASE("every CUDA kernel instance by name == reference, lengths across warp and tile boundaries") {
    require_gpu();
    auto ref = make_nussinov_reference_engine();
    auto gpu = make_nussinov_cuda_engine_ex({0});
    const std::vector<int> batch_lengths = {2, 3, 4, 5, 6, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 200, 230};
    // The tiled kernels fold sequences of one tile count many at once and
    // trace them on the GPU (longer ones: the next test cases).
    const std::vector<int> long_lengths = {2, 3, 5, 64, 127, 128, 129, 255, 256, 257, 383, 384, 385, 600, 1500};
    Tally t;
    for (const std::string& v : nussinov_cuda_variants()) {
        const bool wide = v.find("32") != std::string::npos;
        const bool narrow = v.find("8_") != std::string::npos;  // 8-bit cells: scores up to 255
        const bool is_long = v.rfind("long", 0) == 0;
        gpu->force_variant(v);
        std::vector<int> lengths = is_long ? long_lengths : batch_lengths;
        if (!is_long) {  // up to the instance's shared-memory limit (a pair weight that gives its cells by default)
            const int limit = static_cast<int>(nussinov_cuda_shared_batch_max_length(0, wide ? 30000 : narrow ? 1 : 256));
            REQUIRE(limit > 230);
            lengths.push_back(limit - 1);
            lengths.push_back(limit);
        }
        uint64_t before = t.compared;
        for (const auto& p : param_sets(wide)) {
            std::vector<std::vector<uint8_t>> seqs;
            for (int len : lengths) seqs.push_back(random_rna(static_cast<size_t>(len)));
            // A few more of random length (up to 600: the reference's time
            // grows with n^3), and one with many N.
            const int longest = std::min(*std::max_element(lengths.begin(), lengths.end()), 600);
            for (int r = 0; r < 4; ++r) seqs.push_back(random_rna(static_cast<size_t>(uniform(2, longest))));
            seqs.push_back(random_rna(static_cast<size_t>(uniform(2, longest)), 40));
            if (narrow)  // only sequences whose scores fit 8 bits (the instance refuses the others)
                std::erase_if(seqs, [&](const auto& x) { return x.size() / 2 * std::max({p.w_gc, p.w_au, p.w_gu}) > 255; });
            compare(*gpu, *ref, seqs, p, true, v, t);
        }
        // Scores only, once per instance.
        std::vector<std::vector<uint8_t>> seqs;
        for (int len : lengths) seqs.push_back(random_rna(static_cast<size_t>(len)));
        compare(*gpu, *ref, seqs, NussinovParams{}, false, v + " scores-only", t);
        const auto st = gpu->last_stats();
        CHECK(st.variant == v);
        MESSAGE(v << ": " << (t.compared - before) << " sequences, " << st.launches << " launches in the last call");
    }
    std::printf("sweep: %llu sequences compared, %llu mismatches\n", static_cast<unsigned long long>(t.compared),
                static_cast<unsigned long long>(t.bad));
    CHECK(t.bad == 0);
}

TEST_CASE("default choice on a mixed batch, one slot and several, equals the reference") {
    require_gpu();
    auto ref = make_nussinov_reference_engine();
    std::vector<std::vector<int>> device_sets = {{0}, {0, 0, 0}};
    if (all_devices().size() > 1) device_sets.push_back(all_devices());
    std::vector<std::unique_ptr<NussinovCudaEngine>> gpus;
    for (const auto& devices : device_sets) gpus.push_back(make_nussinov_cuda_engine_ex(devices));
    const auto sets = param_sets(true);
    Tally t;
    // Unit weights (min_loop 1), typed weights (min_loop 0, no wobble pairs), zero weights, 32-bit weights.
    for (size_t ps : {size_t{4}, size_t{3}, sets.size() - 3, sets.size() - 2}) {
        const NussinovParams& p = sets[ps];
        std::vector<std::vector<uint8_t>> seqs;
        for (int len : {0, 1, 2, 0, 3, 1300, 40, 1, 1100, 300, 1024, 1025}) seqs.push_back(random_rna(static_cast<size_t>(len)));
        for (int r = 0; r < 200; ++r) seqs.push_back(random_rna(static_cast<size_t>(uniform(2, 260))));
        std::vector<NussinovFold> want(seqs.size());
        std::vector<std::span<const uint8_t>> spans(seqs.begin(), seqs.end());
        ref->fold(spans, p, true, want);
        for (auto& gpu : gpus) {
            std::vector<NussinovFold> got(seqs.size());
            for (auto& f : got) f.score = -12345, f.structure = "poison";
            gpu->fold(spans, p, true, got);
            for (size_t k = 0; k < seqs.size(); ++k) {
                ++t.compared;
                if (got[k].score == want[k].score && got[k].structure == want[k].structure && got[k].pairs == want[k].pairs)
                    continue;
                if (++t.bad <= 8)
                    MESSAGE("MISMATCH " << gpu->name() << " " << describe(p) << " seq " << k << " n=" << seqs[k].size()
                                        << ": got score " << got[k].score << ", want " << want[k].score);
            }
            const auto st = gpu->last_stats();
            MESSAGE(gpu->name() << ": variants " << st.variant << ", " << st.batch_sequences << " batch, "
                                << st.long_sequences << " long, " << st.host_sequences << " on the host");
            // The tiled kernels take what the shared-memory batch kernels cannot hold.
            const uint32_t smem_max = nussinov_cuda_shared_batch_max_length(0, std::max({p.w_gc, p.w_au, p.gu ? p.w_gu : 0}));
            uint64_t tiled = 0;
            for (const auto& s : seqs) tiled += s.size() > smem_max;
            CHECK(st.long_sequences == tiled);
            CHECK(st.host_sequences == 4);
        }
    }
    CHECK(t.bad == 0);
}

TEST_CASE("mixed lengths in one call, at and around every launch-shape boundary, equal the reference") {
    require_gpu();
    auto ref = make_nussinov_reference_engine();
    auto cpu = make_nussinov_cpu_engine(std::max(1u, std::thread::hardware_concurrency()));
    auto gpu = make_nussinov_cuda_engine_ex({0});
    const auto sets = param_sets(true);
    Tally t;
    // Unit weights (16-bit cells), typed weights with min_loop 0, zero weights, 32-bit weights.
    for (size_t ps : {size_t{4}, size_t{1}, sets.size() - 3, sets.size() - 2}) {
        const NussinovParams& p = sets[ps];
        const int max_w = std::max({p.w_gc, p.w_au, p.gu ? p.w_gu : 0});
        const auto limits = nussinov_cuda_batch_class_limits(0, max_w);
        REQUIRE(!limits.empty());
        std::vector<int> lengths = {0, 1, 2, 3, 127, 128, 129, 255, 256, 257, 383, 384, 385, 2048, 2049};
        std::string shown;
        for (uint32_t l : limits) {  // each class's longest, one shorter (same class) and one longer (the next class up, or tiles)
            for (int x : {int(l) - 1, int(l), int(l) + 1}) lengths.push_back(x);
            shown += (shown.empty() ? "" : ",") + std::to_string(l);
        }
        MESSAGE(describe(p) << ": batch class limits " << shown);
        std::vector<std::vector<uint8_t>> seqs;
        for (int len : lengths)
            for (int copies = 0; copies < (len <= 1024 ? 3 : 1); ++copies) seqs.push_back(random_rna(static_cast<size_t>(len)));
        for (int r = 0; r < 40; ++r) seqs.push_back(random_rna(static_cast<size_t>(uniform(2, 450))));
        // Input order must not matter: shuffle.
        for (size_t k = seqs.size(); k > 1; --k) std::swap(seqs[k - 1], seqs[static_cast<size_t>(uniform(0, static_cast<int>(k) - 1))]);
        compare(*gpu, *ref, seqs, p, true, "mixed", t, cpu.get(), 1100);
        auto st = gpu->last_stats();
        uint64_t batch = 0, host = 0;
        for (const auto& s : seqs) batch += s.size() >= 2 && s.size() <= limits.front(), host += s.size() < 2;
        CHECK(st.batch_sequences == batch);
        CHECK(st.host_sequences == host);
        CHECK(st.long_sequences == seqs.size() - batch - host);
        MESSAGE("  " << st.variant << ": " << st.batch_sequences << " batch, " << st.long_sequences << " tiled, "
                     << st.launches << " launches");
        // The batch reach moved below the first class limit: the tiles take what it no longer holds.
        const uint32_t reach = limits.size() > 1 ? limits[1] : limits.front() - 1;
        gpu->set_batch_max_length(reach);
        compare(*gpu, *ref, seqs, p, false, "mixed, batch reach " + std::to_string(reach), t, cpu.get(), 0);
        st = gpu->last_stats();
        batch = 0;
        for (const auto& s : seqs) batch += s.size() >= 2 && s.size() <= reach;
        CHECK(st.batch_sequences == batch);
        gpu->set_batch_max_length(0);
    }
    CHECK(t.bad == 0);
}

TEST_CASE("long sequences: ~2,500 against the reference, 6,000 against the CPU engine") {
    require_gpu();
    auto ref = make_nussinov_reference_engine();
    auto gpu = make_nussinov_cuda_engine_ex({0});
    Tally t;
    NussinovParams unit;
    compare(*gpu, *ref, {random_rna(2500 + static_cast<size_t>(uniform(0, 200)))}, unit, true, "long-2500", t);
    CHECK(gpu->last_stats().variant == "long16");
    NussinovParams heavy;
    heavy.w_gc = 3000, heavy.w_au = 2000, heavy.w_gu = 1000, heavy.min_loop = 3;
    compare(*gpu, *ref, {random_rna(2100)}, heavy, true, "long-2100-int32", t);
    CHECK(gpu->last_stats().variant == "long32");
    auto cpu = make_nussinov_cpu_engine(std::max(1u, std::thread::hardware_concurrency()));
    compare(*gpu, *cpu, {random_rna(6000)}, unit, true, "long-6000-vs-cpu", t);
    const auto st = gpu->last_stats();
    MESSAGE("n=6000: kernel " << st.kernel_ms << " ms, " << st.launches << " launches, GPU traceback " << st.traceback_ms << " ms");
    CHECK(st.traceback_ms > 0);
    // Zero weights: intervals of score 0 may hold pairs, so the traceback
    // walks them too; two long ones folded one after the other.
    NussinovParams zero;
    zero.w_gc = 2, zero.w_au = 0, zero.w_gu = 0;
    compare(*gpu, *cpu, {random_rna(3000), random_rna(2200)}, zero, true, "long-zero-weights-vs-cpu", t);
    // One of 19 tiles a side is too few to fill the card: three of 18 join
    // its run, padded to 19 (18^3 >= 0.8 x 19^3).
    compare(*gpu, *cpu, {random_rna(2200), random_rna(2400), random_rna(2250), random_rna(2300)}, unit, true,
            "long-same-tile-count-vs-cpu", t);
    const auto together = gpu->last_stats().launches;
    MESSAGE("4 long sequences (18, 19, 18, 18 tiles): " << together << " launches");
    // A run of nb tiles takes 2 nb - 1 launches: the diagonal kernel, the
    // finish on each of the nb - 1 later diagonals and the product from
    // d = 2 on, and the trace. One run of 19 for all four.
    CHECK(together == 2 * 19 - 1);
    CHECK(t.bad == 0);
}

TEST_CASE("refusals: 16-bit instance beyond 16 bits, a sequence past the card's limit") {
    require_gpu();
    auto gpu = make_nussinov_cuda_engine_ex({0});
    NussinovParams heavy;
    heavy.w_gc = 60000;
    const std::vector<uint8_t> s = random_rna(100);
    const std::vector<std::span<const uint8_t>> spans = {s};
    std::vector<NussinovFold> out(1);
    gpu->force_variant("long16");
    CHECK_THROWS_AS(gpu->fold(spans, heavy, false, out), UsageError);
    CHECK_THROWS_AS(gpu->force_variant("no_such_kernel"), UsageError);
    gpu->force_variant("");

    const uint64_t limit = nussinov_cuda_max_length(0);
    std::printf("length limit on GPU 0 (unit weights): %llu bases\n", static_cast<unsigned long long>(limit));
    CHECK(limit > 20000);
    const std::vector<uint8_t> big(limit + 4096, kRnaA);
    const std::vector<std::span<const uint8_t>> big_spans = {big};
    try {
        gpu->fold(big_spans, NussinovParams{}, false, out);
        FAIL("a sequence past the limit was folded");
    } catch (const ResourceError& e) {
        const std::string msg = e.what();
        MESSAGE(msg);
        CHECK(msg.find("longest") != std::string::npos);
    }
}
