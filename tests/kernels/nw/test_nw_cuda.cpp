// The CUDA gpu-nw-dist engine against the CPU engine and the matrix-and-
// traceback references, bit for bit, on fresh random reads every run (seed
// printed, replay with WARPDP_TEST_SEED): lengths swept 0..~600 across the
// strip heights (1, R-1, R, R+1, ...), empty reads, N/R/Y/U letters, reads
// with a literal '-', Tran.dat and a table with ties, every kernel instance by
// name, 1 slot vs several (one GPU repeated and all GPUs), odd launch sizes
// (an NDist fill thread's hi half left over), a batch of > 100,000 pairs in
// small launches, and NDist pairs at the kernels' length limit (la + lb <=
// 5000), with very different lengths in the two halves of a fill thread.
// Skips (77) without a GPU.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "core/base/errors.hpp"
#include "core/nw/nw_cpu.hpp"
#include "core/nw/nw_reference.hpp"
#include "cuda_test_support.hpp"
#include "kernels/common/gpus.hpp"
#include "kernels/nw/nw_cuda.hpp"
#include "test_support.hpp"

using namespace warpdp;
using warpdp::test::require_gpu;
using warpdp::test::random_text;
using warpdp::test::uniform;

namespace {

bool same(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

std::string mutate(const std::string& t, const std::string& letters, int edits) {
    std::string s = t;
    for (int e = 0; e < edits && !s.empty(); ++e) {
        const size_t at = static_cast<size_t>(uniform(0, static_cast<int>(s.size()) - 1));
        switch (uniform(0, 2)) {
            case 0: s.insert(at, static_cast<size_t>(uniform(1, 3)), s[at]); break;  // homopolymer insertion
            case 1: s.erase(at, static_cast<size_t>(uniform(1, 2))); break;
            default: s[at] = letters[static_cast<size_t>(uniform(0, static_cast<int>(letters.size()) - 1))];
        }
    }
    return s;
}

// 454-like reads around a few templates, plus unrelated reads and the swept lengths.
NwReads make_reads(const std::string& letters, int n, int max_len, const std::vector<int>& lengths) {
    NwReads r;
    std::vector<std::string> base;
    for (int k = 0; k < 3; ++k) base.push_back(random_text("ACGT", static_cast<size_t>(uniform(max_len / 2, max_len))));
    int id = 0;
    for (int len : lengths) r.add("s" + std::to_string(id++), mutate(random_text(letters, static_cast<size_t>(len)), letters, 0));
    for (int k = 0; k < n; ++k) {
        std::string s = uniform(0, 4) == 0 ? random_text(letters, static_cast<size_t>(uniform(0, max_len)))
                                           : mutate(base[static_cast<size_t>(uniform(0, 2))], letters, uniform(0, 12));
        r.add("r" + std::to_string(id++), s);
    }
    return r;
}

std::vector<NwPair> all_pairs(size_t n) {
    std::vector<NwPair> p;
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = 0; j < i; ++j) p.push_back({i, j});
    return p;
}

struct Tally {
    uint64_t compared = 0, bad = 0;
};

void expect_equal(const std::vector<double>& got, const std::vector<double>& want, const std::vector<NwPair>& pairs,
                  const NwReads& reads, const std::string& what, Tally& t) {
    REQUIRE(got.size() == want.size());
    for (size_t k = 0; k < got.size(); ++k) {
        ++t.compared;
        if (same(got[k], want[k])) continue;
        if (++t.bad <= 8)
            MESSAGE("MISMATCH " << what << " pair " << pairs[k].a << "," << pairs[k].b << " la=" << reads.length(pairs[k].a)
                                << " lb=" << reads.length(pairs[k].b) << ": got " << got[k] << " want " << want[k]);
    }
}

std::vector<double> run(NwEngine& eng, const NwReads& reads, const NwCodedReads& coded, const std::vector<NwPair>& pairs) {
    eng.load(reads, coded);
    std::vector<double> out(pairs.size(), 12345.0);  // poison: no distance is 12345
    eng.compute(pairs, out);
    return out;
}

std::vector<int> all_devices() {
    std::vector<int> d;
    for (const auto& g : list_gpus()) d.push_back(g.index);
    return d;
}

const SeqDistTable& tie_table() {
    static const SeqDistTable t = parse_seqdist_table("0,10,10,10\n10,0,10,10\n10,10,0,10\n10,10,10,0\n", "TranN");
    return t;
}

}  // namespace

TEST_CASE("CUDA engine == CPU engine == reference, lengths swept across strip heights") {
    require_gpu();
    const std::vector<int> sweep = {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 47, 48, 63, 64, 65, 100, 255, 256, 257, 401, 600};
    struct Case {
        NwMetric metric;
        std::string letters;
        const SeqDistTable* table;
    };
    const Case cases[] = {
        {NwMetric::ndist, "ACGTN", &tran_dat()},
        {NwMetric::ndist, "ACGTNRYU", &tran_dat()},
        {NwMetric::ndist, "ACGTNRY-", &tran_dat()},
        {NwMetric::seqdist, "ACGT", &tran_dat()},
        {NwMetric::seqdist, "ACGT", &tie_table()},
    };
    Tally tally;
    for (const auto& c : cases) {
        const NwReads reads = make_reads(c.letters, 40, 600, sweep);
        const NwCodedReads coded = code_nw_reads(reads, c.metric, *c.table);
        auto pairs = all_pairs(reads.size());
        // Both orientations of some pairs, and a pair of a read with itself.
        pairs.push_back({0, 0});
        pairs.push_back({5, 20});
        uint64_t host_pairs = 0;
        for (const auto& p : pairs) host_pairs += reads.length(p.a) == 0 || reads.length(p.b) == 0;
        std::vector<double> want(pairs.size());
        for (size_t k = 0; k < pairs.size(); ++k) {
            const auto a = reads.read(pairs[k].a), b = reads.read(pairs[k].b);
            const double d = c.metric == NwMetric::ndist ? ndist_reference(a, b) : seqdist_reference(a, b, *c.table);
            want[k] = std::isnan(d) ? nw_canonical_nan() : d;
        }
        const std::string tag = std::string(nw_metric_name(c.metric)) + "/" + c.letters;
        auto cpu = make_nw_cpu_engine(2);
        expect_equal(run(*cpu, reads, coded, pairs), want, pairs, reads, tag + " cpu", tally);
        auto gpu = make_nw_cuda_engine_ex({0});
        for (const auto& name : nw_cuda_variants()) {
            if (name.rfind(nw_metric_name(c.metric), 0) != 0) continue;
            gpu->force_variant(name);
            expect_equal(run(*gpu, reads, coded, pairs), want, pairs, reads, tag + " " + name, tally);
            const auto st = gpu->last_stats();
            CHECK(st.variant == name);
            CHECK(st.gpu_pairs + st.host_pairs == pairs.size());
            CHECK(st.host_pairs == host_pairs);  // only pairs with an empty read
        }
        gpu->force_variant("");
        // Several slots: one GPU repeated, then every GPU; small launches.
        auto multi = make_nw_cuda_engine_ex({0, 0, 0});
        multi->set_launch_pairs(100);
        expect_equal(run(*multi, reads, coded, pairs), want, pairs, reads, tag + " 3 slots", tally);
        for (size_t launch : {1, 3, 33, 127}) {
            gpu->set_launch_pairs(launch);
            expect_equal(run(*gpu, reads, coded, pairs), want, pairs, reads, tag + " launches of " + std::to_string(launch),
                         tally);
        }
        gpu->set_launch_pairs(0);
        auto every = make_nw_cuda_engine(all_devices());
        expect_equal(run(*every, reads, coded, pairs), want, pairs, reads, tag + " all GPUs", tally);
    }
    MESSAGE("compared " << tally.compared << " results");
    CHECK(tally.bad == 0);
}

TEST_CASE("a batch of > 100,000 pairs in bounded launches equals the CPU engine") {
    require_gpu();
    for (NwMetric metric : {NwMetric::ndist, NwMetric::seqdist}) {
        const std::string letters = metric == NwMetric::ndist ? "ACGTN" : "ACGT";
        const NwReads reads = make_reads(letters, 480, 420, {0, 1, 31, 33});
        const NwCodedReads coded = code_nw_reads(reads, metric, tran_dat());
        const auto pairs = all_pairs(reads.size());
        REQUIRE(pairs.size() > 100000);
        auto cpu = make_nw_cpu_engine(std::max(1u, std::thread::hardware_concurrency()));
        const auto want = run(*cpu, reads, coded, pairs);
        auto gpu = make_nw_cuda_engine_ex(all_devices());
        gpu->set_launch_pairs(30000);
        Tally tally;
        expect_equal(run(*gpu, reads, coded, pairs), want, pairs, reads, nw_metric_name(metric), tally);
        const auto st = gpu->last_stats();
        MESSAGE(nw_metric_name(metric) << ": " << st.gpu_pairs << " GPU pairs, " << st.host_pairs << " host pairs, "
                                       << st.launches << " launches, " << st.variant);
        CHECK(st.launches >= 4);
        CHECK(tally.bad == 0);
    }
}

TEST_CASE("NDist pairs on both sides of the kernels' length limit (la + lb <= 5000) equal the reference") {
    require_gpu();
    NwReads reads;
    const std::string base = random_text("ACGTN", 1000);
    reads.add("l4999", mutate(random_text("ACGT", 4100) + base, "ACGTN-", 30).substr(0, 4999));
    reads.add("l1", "A");
    reads.add("m2500", mutate(base + random_text("ACGTN", 1600), "ACGTN", 20).substr(0, 2500));
    reads.add("n2500", mutate(base + random_text("ACGTN", 1600), "ACGTN", 20).substr(0, 2500));
    reads.add("l4000", mutate(random_text("ACGT", 3100) + base, "ACGTN", 30).substr(0, 4000));
    reads.add("s1000", mutate(base + random_text("ACGT", 50), "ACGTN", 10).substr(0, 1000));
    reads.add("s1001", mutate(base + random_text("ACGT", 50), "ACGTN", 10).substr(0, 1001));
    reads.add("l2", "-T");
    for (uint32_t k : {0u, 2u, 3u, 4u, 5u, 6u}) REQUIRE(reads.length(k) == std::vector<uint32_t>{4999, 1, 2500, 2500, 4000, 1000, 1001}[k]);
    // Sorted by (A, length of B), (0, 1) and (1, 0) share a fill thread: one
    // half 4999 x 1, the other 1 x 4999.
    const std::vector<NwPair> pairs = {{0, 1}, {1, 0}, {2, 3}, {3, 2}, {4, 5}, {5, 4}, {4, 6}, {6, 4},
                                       {0, 7}, {7, 0}, {6, 7}, {2, 2}, {0, 0}};
    uint64_t host = 0;
    for (const auto& p : pairs) host += reads.length(p.a) + reads.length(p.b) > 5000;
    REQUIRE(host == 5);
    std::vector<double> want(pairs.size());
    for (size_t k = 0; k < pairs.size(); ++k) want[k] = ndist_reference(reads.read(pairs[k].a), reads.read(pairs[k].b));
    const NwCodedReads coded = code_nw_reads(reads, NwMetric::ndist, tran_dat());
    auto cpu = make_nw_cpu_engine(2);
    Tally tally;
    expect_equal(run(*cpu, reads, coded, pairs), want, pairs, reads, "long ndist cpu", tally);
    auto gpu = make_nw_cuda_engine_ex({0});
    for (const auto& name : nw_cuda_variants()) {
        if (name.rfind("ndist", 0) != 0) continue;
        gpu->force_variant(name);
        expect_equal(run(*gpu, reads, coded, pairs), want, pairs, reads, "long " + name, tally);
        CHECK(gpu->last_stats().host_pairs == host);
    }
    CHECK(tally.bad == 0);
}

TEST_CASE("an unknown kernel name is a usage error") {
    require_gpu();
    const NwReads reads = make_reads("ACGT", 3, 20, {});
    const NwCodedReads coded = code_nw_reads(reads, NwMetric::ndist, tran_dat());
    auto gpu = make_nw_cuda_engine_ex({0});
    gpu->load(reads, coded);
    gpu->force_variant("seqdist_r16");
    std::vector<NwPair> pairs = {{1, 0}};
    std::vector<double> out(1);
    CHECK_THROWS_AS(gpu->compute(pairs, out), UsageError);
}
