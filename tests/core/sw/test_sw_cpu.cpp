// gpu-sw's CPU engine (docs/sw.md §5): every variant of its table by name
// against the reference on fresh random data every run: query lengths swept
// across the lane counts and segment boundaries (+-1), length 0 and 1,
// empty targets, random matrices (very negative entries too, where a gap in
// the query right after a gap in the target wins) and gap costs; the 32-bit
// kernels alone; 16-bit saturation forced by long self-alignments, detected
// per target and recomputed; thread counts.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/io/seq_batch.hpp"
#include "core/sw/sw_cpu.hpp"
#include "core/sw/sw_matrix.hpp"
#include "core/sw/sw_reference.hpp"
#include "simd_test_support.hpp"
#include "sw_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

SeqBatch batch_of(const std::vector<std::vector<uint8_t>>& seqs) {
    SeqBatch b;
    for (const auto& s : seqs) {
        b.residues.insert(b.residues.end(), s.begin(), s.end());
        b.close_record("t" + std::to_string(b.size()), "");
    }
    return b;
}

// Query lengths around every lane count (1, 4, 8, 16) times small segment counts.
std::vector<size_t> swept_lengths() {
    std::vector<size_t> v{0, 1, 2, 3};
    for (size_t w : {4, 8, 16})
        for (size_t k : {1, 2, 3, 5})
            for (int d = -1; d <= 1; ++d) v.push_back(w * k + static_cast<size_t>(d));
    for (int r = 0; r < 6; ++r) v.push_back(static_cast<size_t>(uniform(50, 400)));
    return v;
}

}  // namespace

TEST_CASE("every CPU variant equals the reference on random queries and targets") {
    seed();
    const SwMatrix& b62 = SwMatrix::builtin("BLOSUM62");
    const SwMatrix& b45 = SwMatrix::builtin("BLOSUM45");
    for (const auto& v : runnable_variants<SwCpuKernels>(sw_cpu_variants())) {
        INFO("variant ", v.name);
        for (size_t qlen : swept_lengths()) {
            const int kind = uniform(0, 3);
            const SwMatrix rnd = random_matrix(uniform(3, 25), kind == 3 ? -60 : uniform(-8, -1), uniform(1, 15));
            const SwMatrix& m = kind == 0 ? b62 : kind == 1 ? b45 : rnd;
            const SwScoring sc = kind == 0 && uniform(0, 1) ? SwScoring{&m, 11, 1} : random_gaps(m);
            const auto q = random_codes(m, qlen);
            std::vector<std::vector<uint8_t>> targets;
            targets.emplace_back();                             // empty
            targets.push_back(random_codes(m, 1));              // length 1
            for (int k = 0; k < 5; ++k) targets.push_back(random_codes(m, static_cast<size_t>(uniform(1, 300))));
            if (!q.empty()) {
                targets.push_back(mutated(m, q));              // a relative: long alignments with gaps
                targets.push_back(q);
            }
            const SeqBatch db = batch_of(targets);
            INFO("qlen ", qlen, " open ", sc.gap_open, " extend ", sc.gap_extend, " matrix ", m.name());
            SwCpuScorer scorer(v, q, sc);
            for (size_t t = 0; t < db.size(); ++t) {
                const int64_t want = sw_reference_score(q, db.seq(t), sc);
                CHECK(scorer.score(db.seq(t)) == want);
                CHECK(scorer.score(db.seq(t), nullptr, true) == want);
            }
            SwCpuOptions opt;
            opt.threads = static_cast<unsigned>(uniform(1, 3));
            auto engine = make_sw_cpu_engine(opt, v);
            engine->load(db, sc);
            std::vector<int32_t> got(db.size());
            engine->score(q, got);
            for (size_t t = 0; t < db.size(); ++t) CHECK(got[t] == sw_reference_score(q, db.seq(t), sc));
        }
    }
}

TEST_CASE("a gap in the query right after a gap in the target, across lane boundaries") {
    // Mismatches cost more than two gap openings, so alignments step around
    // them with an I and a D side by side; where the I ends on a lane's last
    // position, only the carried F (the lazy pass) raises that cell, and the
    // D that follows must start from the raised value.
    const SwMatrix m = SwMatrix::parse_ncbi("   A C G *\nA 6 -40 -40 -40\nC -40 6 -40 -40\nG -40 -40 6 -40\n* -40 -40 -40 1\n",
                                            "adjacency", "adjacency");
    for (const auto& v : runnable_variants<SwCpuKernels>(sw_cpu_variants())) {
        INFO("variant ", v.name);
        for (int rep = 0; rep < 300; ++rep) {
            const SwScoring sc{&m, uniform(1, 3), 1};
            const auto q = random_codes(m, static_cast<size_t>(uniform(1, 70)), 3);
            const auto t = random_codes(m, static_cast<size_t>(uniform(1, 70)), 3);
            SwCpuScorer scorer(v, q, sc);
            const int64_t want = sw_reference_score(q, t, sc);
            CHECK(scorer.score(t) == want);
            CHECK(scorer.score(t, nullptr, true) == want);
        }
    }
}

TEST_CASE("16-bit saturation is detected per target and recomputed in 32 bits") {
    const SwMatrix& m = SwMatrix::builtin("BLOSUM62");
    const SwScoring sc{&m, 11, 1};
    // A random protein self-aligned scores the sum of its diagonal entries
    // (about 5.3 a residue with BLOSUM62): 7,000 residues pass 32,767.
    const auto q = random_codes(m, 7000, 20);
    const int64_t self = sw_reference_score(q, q, sc);
    REQUIRE(self > 32767);  // the test really saturates 16 bits
    auto half = std::vector<uint8_t>(q.begin(), q.begin() + 3000);
    const SeqBatch db = batch_of({random_codes(m, 200, 20), q, half, mutated(m, q), {}});
    std::vector<int64_t> want;
    for (size_t t = 0; t < db.size(); ++t) want.push_back(sw_reference_score(q, db.seq(t), sc));
    uint64_t over = 0;
    for (int64_t w : want) over += w >= 32767;
    for (const auto& v : runnable_variants<SwCpuKernels>(sw_cpu_variants())) {
        INFO("variant ", v.name);
        SwCpuOptions opt;
        opt.threads = 2;
        auto engine = make_sw_cpu_engine(opt, v);
        engine->load(db, sc);
        std::vector<int32_t> got(db.size());
        engine->score(q, got);
        for (size_t t = 0; t < db.size(); ++t) CHECK(got[t] == want[t]);
        CHECK(engine->last_stats().recomputed == (v.kernels.lanes16 > 0 ? over : 0));
        CHECK(engine->last_stats().cells == q.size() * db.total_residues());
    }
}

TEST_CASE("the default engine and thread counts give the same scores") {
    const SwMatrix& m = SwMatrix::builtin("BLOSUM80");
    const SwScoring sc{&m, 10, 2};
    std::vector<std::vector<uint8_t>> targets;
    for (int k = 0; k < 200; ++k) targets.push_back(random_codes(m, static_cast<size_t>(uniform(0, 120))));
    const SeqBatch db = batch_of(targets);
    const auto q = random_codes(m, 77);
    std::vector<int32_t> a(db.size()), b(db.size());
    auto e1 = make_sw_cpu_engine(1);
    auto e4 = make_sw_cpu_engine(4);
    e1->load(db, sc);
    e4->load(db, sc);
    e1->score(q, a);
    e4->score(q, b);
    CHECK(a == b);
    auto ref = make_sw_reference_engine();
    ref->load(db, sc);
    std::vector<int32_t> r(db.size());
    ref->score(q, r);
    CHECK(a == r);
}

TEST_CASE("the reference and the CPU engine refuse a score call before load, a wrong span, bad gap costs") {
    const SwMatrix& m = SwMatrix::builtin("BLOSUM62");
    const SeqBatch db = batch_of({random_codes(m, 30), random_codes(m, 5)});
    const auto q = random_codes(m, 12);
    std::vector<std::unique_ptr<SwEngine>> engines;
    engines.push_back(make_sw_reference_engine());
    engines.push_back(make_sw_cpu_engine(2));
    for (auto& e : engines) {
        INFO(e->name());
        std::vector<int32_t> two(2), three(3);
        CHECK_THROWS_AS(e->score(q, two), InternalError);
        CHECK_THROWS_AS(e->load(db, SwScoring{&m, 0, 0}), UsageError);
        CHECK_THROWS_AS(e->load(db, SwScoring{&m, 5, 6}), UsageError);
        CHECK_THROWS_AS(e->load(db, SwScoring{nullptr, 11, 1}), UsageError);
        const SwScoring sc{&m, 11, 1};
        e->load(db, sc);
        CHECK_THROWS_AS(e->score(q, three), InternalError);
        e->score(q, two);
        for (size_t t = 0; t < db.size(); ++t) CHECK(two[t] == sw_reference_score(q, db.seq(t), sc));
    }
}
