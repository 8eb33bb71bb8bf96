// The CUDA gpu-sw engine against the reference recurrence
// (core/sw/sw_reference.hpp), score for score, on fresh random proteins every
// run (seed printed, replay with WARPDP_TEST_SEED): every kernel
// configuration by name, with query lengths around its rows per pass (1, 2,
// W - 1, W, W + 1 and several passes) and target lengths around its group
// size (1, 2, G +- 1, 3G +- 1, ...), odd target counts (a half-empty pair)
// and empty targets; groups streaming many pairs, in one pass and in
// several; the default choice on a mixed chunk over one slot, two
// slots of one GPU and all GPUs, a second load replacing the first, BLOSUM45
// and odd gap costs; 16-bit overflow forced both by long self-alignments
// under BLOSUM62 and by a matrix of large entries, each recomputed exactly;
// a query and a target of 40,000 residues; and the refusals (an unknown
// configuration, a score span of the wrong size). Skips (77) without a GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "core/base/errors.hpp"
#include "core/base/parallel.hpp"
#include "core/io/seq_batch.hpp"
#include "core/sw/sw_engine.hpp"
#include "core/sw/sw_matrix.hpp"
#include "core/sw/sw_reference.hpp"
#include "cuda_test_support.hpp"
#include "kernels/common/gpus.hpp"
#include "kernels/sw/sw_cuda.hpp"
#include "test_support.hpp"

using namespace warpdp;
using warpdp::test::require_gpu;
using warpdp::test::uniform;

namespace {

// Random codes of `mx`: mostly its first 20 letters (the amino acids of the
// NCBI matrices), now and then any other letter it has (B, Z, X, *).
std::vector<uint8_t> random_protein(const SwMatrix& mx, size_t n) {
    std::vector<uint8_t> s(n);
    const int common = std::min(20, mx.size());
    for (auto& c : s)
        c = static_cast<uint8_t>(uniform(0, 99) < 3 ? uniform(0, mx.size() - 1) : uniform(0, common - 1));
    return s;
}

// `src` with about one residue in `every` changed, so that it aligns well.
std::vector<uint8_t> mutate(const SwMatrix& mx, std::vector<uint8_t> src, int every) {
    for (auto& c : src)
        if (uniform(1, every) == 1) c = static_cast<uint8_t>(uniform(0, std::min(20, mx.size()) - 1));
    return src;
}

SeqBatch batch_of(const std::vector<std::vector<uint8_t>>& seqs) {
    SeqBatch b;
    for (size_t k = 0; k < seqs.size(); ++k) {
        b.residues.insert(b.residues.end(), seqs[k].begin(), seqs[k].end());
        b.close_record("t" + std::to_string(k), "");
    }
    return b;
}

unsigned host_threads() { return std::max(1u, std::min(16u, std::thread::hardware_concurrency())); }

// Scores `query` against every target with the engine (output poisoned
// first) and with the reference; returns the mismatches, printing a few.
int compare(SwEngine& gpu, const SeqBatch& targets, const std::vector<uint8_t>& query, const SwScoring& sc,
            const std::string& what) {
    std::vector<int32_t> got(targets.size(), -12345);
    gpu.score(query, got);
    std::vector<int64_t> want(targets.size());
    parallel_for(targets.size(), host_threads(), 1,
                 [&](size_t t) { want[t] = sw_reference_score(query, targets.seq(t), sc); });
    int bad = 0;
    for (size_t t = 0; t < targets.size(); ++t) {
        if (got[t] == want[t]) continue;
        if (++bad <= 6)
            MESSAGE("MISMATCH " << what << ": query length " << query.size() << ", target " << t << " of length "
                                << targets.length(t) << ": got " << got[t] << ", want " << want[t]);
    }
    return bad;
}

// Lanes per group and rows per lane of a configuration: "s16_g8_r12" -> {8, 12}.
std::pair<int, int> config_shape(const std::string& name) {
    const size_t g = name.find("_g"), r = name.find("_r");
    return {std::stoi(name.substr(g + 2, r - g - 2)), std::stoi(name.substr(r + 2))};
}

// The first configuration of a shape, whatever register cap the table
// gives it: "s16_g8_r16" -> "s16_g8_r16_b3".
std::string variant_of_shape(const std::string& shape) {
    for (const std::string& v : sw_cuda_variants())
        if (v.starts_with(shape + "_b")) return v;
    FAIL("no configuration of shape " << shape);
    return {};
}

SwScoring blosum62() {
    SwScoring sc;
    sc.matrix = &SwMatrix::builtin("BLOSUM62");
    return sc;
}

std::vector<int> all_devices() {
    std::vector<int> d;
    for (const auto& g : list_gpus()) d.push_back(g.index);
    return d;
}

}  // namespace

TEST_CASE("every CUDA kernel configuration by name == reference, lengths around its shape") {
    require_gpu();
    const SwScoring sc = blosum62();
    const SwMatrix& mx = *sc.matrix;
    auto gpu = make_sw_cuda_engine_ex({0});
    int bad = 0;
    for (const std::string& name : sw_cuda_variants()) {
        const auto [G, R] = config_shape(name);
        const int W = G * R;
        std::vector<int> lengths = {1, 2, 3, G - 1, G, G + 1, 2 * G, 3 * G - 1, 3 * G, 3 * G + 1, 100, 0};
        for (int k = 0; k < 6; ++k) lengths.push_back(uniform(1, 1500));
        std::shuffle(lengths.begin(), lengths.end(), warpdp::test::rng());  // the engine sorts them
        std::vector<std::vector<uint8_t>> seqs;
        for (int L : lengths) seqs.push_back(random_protein(mx, static_cast<size_t>(L)));
        const auto related = random_protein(mx, static_cast<size_t>(W + 7));
        seqs.push_back(mutate(mx, related, 5));  // an odd count: one pair is half empty
        const SeqBatch targets = batch_of(seqs);
        gpu->force_variant(name);
        gpu->load(targets, sc);
        for (int m : {1, 2, 3, W - 1, W, W + 1, 2 * W + 1}) bad += compare(*gpu, targets, random_protein(mx, static_cast<size_t>(m)), sc, name);
        bad += compare(*gpu, targets, related, sc, name + " related");
    }
    CHECK(bad == 0);
}

TEST_CASE("the default choice == reference on a mixed chunk: one slot, two slots of one GPU, all GPUs") {
    require_gpu();
    const SwScoring sc = blosum62();
    const SwMatrix& mx = *sc.matrix;
    std::vector<std::vector<uint8_t>> seqs;
    for (int k = 0; k < 600; ++k) {
        // Mostly protein-like lengths, some past every single-pass width.
        const int L = uniform(0, 9) == 0 ? uniform(1281, 4000) : uniform(0, 1300);
        seqs.push_back(random_protein(mx, static_cast<size_t>(L)));
    }
    for (int L : {0, 0, 1, 32, 33, 64, 65, 256, 257, 512, 513, 1024, 1025, 1280, 1281}) seqs.push_back(random_protein(mx, static_cast<size_t>(L)));
    const SeqBatch targets = batch_of(seqs);
    const auto query = mutate(mx, seqs[3].empty() ? random_protein(mx, 400) : seqs[3], 3);
    int bad = 0;
    std::vector<std::vector<int>> device_sets = {{0}, {0, 0}};
    if (all_devices().size() > 1) device_sets.push_back(all_devices());
    for (const auto& devices : device_sets) {
        auto gpu = make_sw_cuda_engine(devices);
        gpu->load(targets, sc);
        for (int m : {1, 144, 1500, 0}) {
            const auto q = m == 0 ? query : random_protein(mx, static_cast<size_t>(m));
            bad += compare(*gpu, targets, q, sc, gpu->name());
        }
        CHECK(gpu->last_stats().cells == query.size() * targets.total_residues());
    }
    // A second load replaces the first; another matrix and gap costs.
    auto gpu = make_sw_cuda_engine({0});
    gpu->load(targets, sc);
    std::vector<std::vector<uint8_t>> other(seqs.begin(), seqs.begin() + 101);
    const SeqBatch targets2 = batch_of(other);
    SwScoring sc45;
    sc45.matrix = &SwMatrix::builtin("BLOSUM45");
    sc45.gap_open = 13;
    sc45.gap_extend = 2;
    gpu->load(targets2, sc45);
    bad += compare(*gpu, targets2, random_protein(*sc45.matrix, 250), sc45, "reload BLOSUM45 13/2");
    sc45.gap_open = 5;
    sc45.gap_extend = 0;
    gpu->load(targets2, sc45);
    bad += compare(*gpu, targets2, random_protein(*sc45.matrix, 99), sc45, "BLOSUM45 5/0");
    CHECK(bad == 0);
}

TEST_CASE("many pairs a group: streamed pairs and streamed passes == reference") {
    require_gpu();
    // So many short targets that every group of the grid streams several
    // pairs through its wavefront, in one pass and in several, for a shape
    // of each lane count and for the default choice.
    const SwScoring sc = blosum62();
    const SwMatrix& mx = *sc.matrix;
    std::vector<std::vector<uint8_t>> seqs;
    for (int k = 0; k < 60000; ++k) seqs.push_back(random_protein(mx, static_cast<size_t>(uniform(0, 120))));
    const SeqBatch targets = batch_of(seqs);
    auto gpu = make_sw_cuda_engine_ex({0});
    gpu->load(targets, sc);
    int bad = 0;
    for (const std::string& name : {variant_of_shape("s16_g8_r16"), variant_of_shape("s16_g16_r24"),
                                    variant_of_shape("s16_g32_r32"), std::string()}) {
        gpu->force_variant(name);
        const int W = name.empty() ? 400 : static_cast<int>(sw_cuda_variant_rows(name));
        for (int m : {W - 3, 2 * W + 5})
            bad += compare(*gpu, targets, random_protein(mx, static_cast<size_t>(m)), sc, name.empty() ? "default" : name);
    }
    CHECK(bad == 0);
}

TEST_CASE("16-bit overflow: recomputed in 32 bits, exactly") {
    require_gpu();
    int bad = 0;
    {
        // Self-alignments of ~7,000 residues score past 32767 under BLOSUM62.
        const SwScoring sc = blosum62();
        const SwMatrix& mx = *sc.matrix;
        const auto query = random_protein(mx, 7000);
        std::vector<std::vector<uint8_t>> seqs = {query, mutate(mx, query, 40), std::vector<uint8_t>(query.begin() + 500, query.end()),
                                                  random_protein(mx, 300), random_protein(mx, 7001)};
        const SeqBatch targets = batch_of(seqs);
        for (const std::string& v : {std::string(), sw_cuda_variants().front(), std::string("s32_g32_r16")}) {
            auto gpu = make_sw_cuda_engine_ex({0});
            gpu->force_variant(v);
            gpu->load(targets, sc);
            bad += compare(*gpu, targets, query, sc, "self-alignment " + v);
            if (v != "s32_g32_r16") CHECK(gpu->last_stats().recomputed >= 2);
        }
    }
    {
        // Entries of 127 overflow 16 bits within a few hundred residues:
        // every configuration meets the overflow, in one pass and in several.
        std::string text = "   A  C  D  E  X\n";
        const char* letters = "ACDEX";
        for (int a = 0; a < 5; ++a) {
            text += letters[a];
            for (int b = 0; b < 5; ++b) text += " " + std::to_string(a == b ? 127 : -100 + 10 * (a + b));
            text += "\n";
        }
        const SwMatrix big = SwMatrix::parse_ncbi(text, "test", "big");
        SwScoring sc;
        sc.matrix = &big;
        sc.gap_open = 300;
        sc.gap_extend = 7;
        for (const std::string& name : sw_cuda_variants()) {
            const auto [G, R] = config_shape(name);
            const int L = std::max(G * R + (G * R) % 7, 400);
            std::vector<uint8_t> query(static_cast<size_t>(L));
            for (auto& c : query) c = static_cast<uint8_t>(uniform(0, 3));
            std::vector<std::vector<uint8_t>> seqs = {query, mutate(big, query, 30), random_protein(big, static_cast<size_t>(L / 3))};
            const SeqBatch targets = batch_of(seqs);
            auto gpu = make_sw_cuda_engine_ex({0});
            gpu->force_variant(name);
            gpu->load(targets, sc);
            bad += compare(*gpu, targets, query, sc, "large entries " + name);
            if (name.rfind("s16", 0) == 0) CHECK(gpu->last_stats().recomputed >= 1);
        }
    }
    CHECK(bad == 0);
}

TEST_CASE("a query and a target of 40,000 residues") {
    require_gpu();
    const SwScoring sc = blosum62();
    const SwMatrix& mx = *sc.matrix;
    const auto query = random_protein(mx, 40000);
    std::vector<std::vector<uint8_t>> seqs = {mutate(mx, query, 6), random_protein(mx, 40000), random_protein(mx, 350),
                                              std::vector<uint8_t>(query.begin() + 100, query.begin() + 900)};
    const SeqBatch targets = batch_of(seqs);
    auto gpu = make_sw_cuda_engine({0});
    gpu->load(targets, sc);
    CHECK(compare(*gpu, targets, query, sc, "40k") == 0);
    CHECK(compare(*gpu, targets, random_protein(mx, 200), sc, "40k targets, short query") == 0);
}

TEST_CASE("refusals: an unknown configuration, a score span of the wrong size") {
    require_gpu();
    const SwScoring sc = blosum62();
    auto gpu = make_sw_cuda_engine_ex({0});
    CHECK_THROWS_AS(gpu->force_variant("s16_g3_r7"), UsageError);
    const SeqBatch targets = batch_of({random_protein(*sc.matrix, 33)});
    gpu->load(targets, sc);
    std::vector<int32_t> wrong(2);
    CHECK_THROWS_AS(gpu->score(random_protein(*sc.matrix, 10), wrong), InternalError);
    std::vector<int32_t> out(1, -1);
    gpu->score({}, out);  // an empty query scores 0
    CHECK(out[0] == 0);
}
