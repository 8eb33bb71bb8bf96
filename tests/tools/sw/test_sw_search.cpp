// gpu-sw's stage (docs/sw.md §7, §8): the hits a query keeps, chunk by chunk
// (the best --max-hits by score, ties in database order, above the score
// floor, one copy a target), the --evalue cut, the checked traceback, the
// matrix and statistics the options choose, and work an engine refuses going
// to the CPU's.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/sw/sw_engine.hpp"
#include "core/sw/sw_reference.hpp"
#include "test_support.hpp"
#include "tools/sw/sw_hits.hpp"
#include "tools/sw/sw_matrix_choice.hpp"
#include "tools/sw/sw_options.hpp"
#include "tools/sw/sw_search.hpp"

using namespace warpdp;

namespace {

// A chunk of `n` targets named t<index> starting at database index `first`,
// each one residue (code r).
SeqBatch chunk_of(uint64_t first, size_t n, uint8_t r = 0) {
    SeqBatch b;
    b.first_index = first;
    for (size_t t = 0; t < n; ++t) {
        b.residues.push_back(r);
        b.close_record("t" + std::to_string(first + t), "");
    }
    return b;
}

std::vector<uint64_t> indices(const std::vector<SwHit>& hits) {
    std::vector<uint64_t> v;
    for (const auto& h : hits) v.push_back(h.index);
    return v;
}

// Merges `scores` (one a database target) cut into chunks at `cuts`.
std::vector<SwHit> merged(const std::vector<int32_t>& scores, const std::vector<size_t>& cuts, uint64_t keep,
                          int64_t min_score) {
    std::vector<SwHit> top;
    size_t begin = 0;
    for (size_t k = 0; k <= cuts.size(); ++k) {
        const size_t end = k < cuts.size() ? cuts[k] : scores.size();
        const SeqBatch c = chunk_of(begin, end - begin);
        std::vector<std::shared_ptr<const SwHitTarget>> copies(c.size());
        merge_sw_chunk(top, std::span<const int32_t>(scores.data() + begin, end - begin), c, {}, keep, min_score,
                       copies);
        begin = end;
    }
    return top;
}

}  // namespace

TEST_CASE("a query keeps its best --max-hits targets by score, equal scores in database order, across chunks") {
    // Scores by database index; cut into three chunks.
    const std::vector<int32_t> scores{5, 9, 7, 9, 3, 9, 7};
    const auto top = merged(scores, {2, 4}, 4, 1);
    CHECK(indices(top) == std::vector<uint64_t>{1, 3, 5, 2});
    CHECK(top[0].target->name == "t1");
    // A later target that only ties the last kept does not displace it.
    CHECK(indices(merged(scores, {2, 4}, 3, 1)) == std::vector<uint64_t>{1, 3, 5});
    CHECK(indices(merged({7, 7, 7}, {1, 2}, 2, 1)) == std::vector<uint64_t>{0, 1});
}

TEST_CASE("scores below --min-score are never kept, and a score of 0 never is") {
    const std::vector<int32_t> scores{0, 4, 5, 3, 6, 0};
    CHECK(indices(merged(scores, {3}, 10, 5)) == std::vector<uint64_t>{4, 2});
    CHECK(indices(merged(scores, {3}, 10, 1)) == std::vector<uint64_t>{4, 2, 1, 3});
}

TEST_CASE("the hits kept do not depend on where the database is cut into chunks") {
    for (int round = 0; round < 50; ++round) {
        const size_t n = static_cast<size_t>(test::uniform(1, 60));
        std::vector<int32_t> scores(n);
        for (auto& s : scores) s = test::uniform(0, 8);  // many ties
        const uint64_t keep = static_cast<uint64_t>(test::uniform(1, 12));
        const int64_t min_score = test::uniform(1, 4);
        std::vector<size_t> cuts;
        for (size_t i = 1; i < n; ++i)
            if (test::uniform(0, 3) == 0) cuts.push_back(i);
        // What the ranking means, written out: every score >= min_score, by
        // score then index, the first `keep`.
        std::vector<uint64_t> expect;
        for (size_t i = 0; i < n; ++i)
            if (scores[i] >= min_score) expect.push_back(i);
        std::stable_sort(expect.begin(), expect.end(), [&](uint64_t a, uint64_t b) { return scores[a] > scores[b]; });
        if (expect.size() > keep) expect.resize(keep);
        CAPTURE(round);
        CHECK(indices(merged(scores, cuts, keep, min_score)) == expect);
        CHECK(indices(merged(scores, {}, keep, min_score)) == expect);
    }
}

TEST_CASE("a target kept by several queries is copied once, with its residues and identity classes") {
    SeqBatch c;
    c.first_index = 10;
    for (uint8_t r : {uint8_t{1}, uint8_t{2}}) c.residues.push_back(r);
    c.close_record("a", "");
    for (uint8_t r : {uint8_t{3}}) c.residues.push_back(r);
    c.close_record("b", "");
    const std::vector<uint8_t> classes{1, 40, 3};
    std::vector<std::shared_ptr<const SwHitTarget>> copies(c.size());
    std::vector<SwHit> q1, q2;
    merge_sw_chunk(q1, std::vector<int32_t>{8, 2}, c, classes, 5, 1, copies);
    merge_sw_chunk(q2, std::vector<int32_t>{3, 0}, c, classes, 5, 1, copies);
    REQUIRE(q1.size() == 2);
    REQUIRE(q2.size() == 1);
    CHECK(q1[0].index == 10);
    CHECK(q1[0].target.get() == q2[0].target.get());
    CHECK(q1[0].target->name == "a");
    CHECK(q1[0].target->residues == std::vector<uint8_t>{1, 2});
    CHECK(q1[0].target->classes == std::vector<uint8_t>{1, 40});
    CHECK(q1[1].target->classes == std::vector<uint8_t>{3});
    CHECK(copies[0].use_count() == 3);
    // Without classes (the chunk's codes are its classes) none are copied.
    std::vector<std::shared_ptr<const SwHitTarget>> plain(c.size());
    std::vector<SwHit> q3;
    merge_sw_chunk(q3, std::vector<int32_t>{8, 2}, c, {}, 5, 1, plain);
    CHECK(q3[0].target->classes.empty());
}

TEST_CASE("the --evalue cut keeps the hits up to the first E-value above it: E-values grow down the list") {
    const SwKarlinParams k = *sw_karlin_params("BLOSUM62", 11, 1);
    const double space = 15.0 * 1e6;
    auto hits_of = [](std::vector<int64_t> scores) {
        std::vector<SwHit> hits;
        for (size_t i = 0; i < scores.size(); ++i) {
            SwHit h;
            h.score = scores[i];
            h.index = i;
            hits.push_back(std::move(h));
        }
        return hits;
    };
    const std::vector<int64_t> scores{90, 70, 60, 50, 40, 30};
    auto all = hits_of(scores);
    cut_sw_hits_by_evalue(all, k, space, std::nullopt);
    REQUIRE(all.size() == scores.size());
    for (size_t i = 0; i < all.size(); ++i) {
        CHECK(all[i].evalue == sw_evalue(k, scores[i], space));
        if (i) CHECK(all[i].evalue > all[i - 1].evalue);
    }
    // A cut between the E-values of hits 2 and 3, and one exactly at hit 2's.
    const double cut = (all[2].evalue + all[3].evalue) / 2;
    auto some = hits_of(scores);
    cut_sw_hits_by_evalue(some, k, space, cut);
    CHECK(indices(some) == std::vector<uint64_t>{0, 1, 2});
    auto at = hits_of(scores);
    cut_sw_hits_by_evalue(at, k, space, all[2].evalue);
    CHECK(at.size() == 3);
    auto none = hits_of(scores);
    cut_sw_hits_by_evalue(none, k, space, all[0].evalue / 2);
    CHECK(none.empty());
}

TEST_CASE("every hit is traced; an alignment that does not give the engine's score is an internal error") {
    const SwMatrix& m = SwMatrix::builtin("BLOSUM62");
    const SwScoring scoring{&m, 11, 1};
    const SwCodes codes(m);
    auto coded = [&](const std::string& s) {
        std::vector<uint8_t> v;
        for (char c : s) v.push_back(m.code_of(static_cast<unsigned char>(c)));
        return v;
    };
    auto target = std::make_shared<SwHitTarget>();
    target->name = "t";
    target->residues = coded("MKVLAAXXXXXGIVGLLLAW");
    const std::vector<std::vector<uint8_t>> q{coded("MKVLAAGIVGLLLAW")};
    std::vector<std::vector<SwHit>> hits(1);
    SwHit hit;
    hit.score = 58;
    hit.target = target;
    hits[0].push_back(std::move(hit));
    trace_sw_hits(hits, q, q, scoring, 2);
    CHECK(hits[0][0].alignment.score == 58);
    CHECK(hits[0][0].counts.length == 20);
    hits[0][0].score = 57;
    CHECK_THROWS_AS(trace_sw_hits(hits, q, q, scoring, 2), InternalError);
}

TEST_CASE("--matrix: a built-in name in any case, else a file; the errors say what was meant") {
    CHECK(choose_sw_matrix("blosum80").name() == "BLOSUM80");
    CHECK(choose_sw_matrix("BLOSUM45").name() == "BLOSUM45");
    CHECK_THROWS_WITH_AS(choose_sw_matrix(""), "--matrix is empty", UsageError);
    test::TempDir dir;
    const std::string missing = (dir.path() / "BLOSUM63").string();
    CHECK_THROWS_WITH_AS(choose_sw_matrix(missing),
                         (missing + ": no such file, and not a built-in matrix (BLOSUM45, BLOSUM50, BLOSUM62, BLOSUM80)")
                             .c_str(),
                         InputError);
    const auto file = dir.write("m.txt", "   A  W  X\nA  2 -3 -1\nW -3  9 -2\nX -1 -2 -1\n");
    const SwMatrix m = choose_sw_matrix(file.string());
    CHECK(m.letters() == "AWX");
    CHECK(m.score(1, 1) == 9);
    const auto bad = dir.write("bad.txt", "   A  W\nA  2\nW -3  9\n");
    CHECK_THROWS_AS(choose_sw_matrix(bad.string()), InputError);
}

TEST_CASE("gap costs are BLAST's: a gap of k residues costs --gap-open + k x --gap-extend") {
    const SwMatrix& b62 = SwMatrix::builtin("BLOSUM62");
    auto codes = [&](const std::string& s) {
        std::vector<uint8_t> c;
        for (char x : s) c.push_back(b62.code_of(static_cast<unsigned char>(x)));
        return c;
    };
    // Ten W against ten W with k residues (A) inserted in the middle: the gap
    // beats every ungapped alignment, so the score is 10 s(W,W) - gap(k).
    const std::vector<uint8_t> q = codes("WWWWWWWWWW");
    const int ww = b62.score(b62.code_of('W'), b62.code_of('W'));
    for (const SwGapCosts gaps : {SwGapCosts{}, SwGapCosts{10, 1}, SwGapCosts{0, 3}, SwGapCosts{7, 0}}) {
        const SwScoring sc = sw_scoring(b62, gaps);
        CHECK(sc.matrix == &b62);
        CHECK_NOTHROW(check_sw_scoring(sc));
        for (int k = 1; k <= 3; ++k) {
            const std::vector<uint8_t> t = codes("WWWWW" + std::string(static_cast<size_t>(k), 'A') + "WWWWW");
            CHECK(sw_reference_score(q, t, sc) == 10 * ww - (gaps.open + k * gaps.extend));
        }
    }
    // The defaults are blastp's 11 and 1: the engines' first residue costs 12.
    CHECK(sw_scoring(b62, SwGapCosts{}).gap_open == 12);
    CHECK(sw_scoring(b62, SwGapCosts{}).gap_extend == 1);
    CHECK(SwArgs{}.gap_open == 11);
    CHECK(SwArgs{}.gap_extend == 1);
}

TEST_CASE("statistics: BLAST's entry for the matrix and gap costs, or an error naming the pairs it has") {
    const SwMatrix& b62 = SwMatrix::builtin("BLOSUM62");
    // The options are BLAST's terms: its default 11/1 is its row (11, 1).
    const SwKarlinParams k = choose_sw_statistics(b62, SwGapCosts{11, 1});
    const auto expect = *sw_karlin_params("BLOSUM62", 11, 1);
    CHECK(k.lambda == expect.lambda);
    CHECK(k.K == expect.K);
    CHECK(k.existence == 11);
    CHECK(k.extension == 1);
    try {
        (void)choose_sw_statistics(b62, SwGapCosts{5, 1});
        FAIL("no error");
    } catch (const UsageError& e) {
        const std::string what = e.what();
        CHECK(what.find("BLAST has no statistics for BLOSUM62 with --gap-open 5 --gap-extend 1 (it has open/extend ") !=
              std::string::npos);
        CHECK(what.find(sw_karlin_gap_pairs("BLOSUM62").front()) != std::string::npos);
        CHECK(what.find("--no-evalue") != std::string::npos);
    }
    test::TempDir dir;
    const SwMatrix own = choose_sw_matrix(dir.write("m.txt", "   A  W  X\nA  2 -3 -1\nW -3  9 -2\nX -1 -2 -1\n").string());
    CHECK_THROWS_WITH_AS(choose_sw_statistics(own, SwGapCosts{11, 1}),
                         doctest::Contains("BLAST has no statistics for m.txt with --gap-open 11 --gap-extend 1 "
                                           "(it has none for this matrix)"),
                         UsageError);
}

TEST_CASE("letters a matrix lacks score as its unknown code but are identical only to themselves") {
    const SwMatrix& m = SwMatrix::builtin("BLOSUM62");
    const SwCodes codes(m);
    const Alphabet& abc = Alphabet::amino();
    auto code = [&](char letter) {
        for (int c = 0; c < abc.Kp(); ++c)
            if (abc.symbol(c) == letter) return static_cast<uint8_t>(c);
        FAIL("no such letter");
        return uint8_t{0};
    };
    for (char letter : {'U', 'O', '*'}) CHECK(codes.to_matrix[code(letter)] == m.unknown_code());
    CHECK(codes.to_class[code('U')] != codes.to_class[code('O')]);
    CHECK(codes.to_class[code('U')] != codes.to_class[code('*')]);
    CHECK(codes.own_class(code('U')));
    CHECK_FALSE(codes.own_class(code('*')));
    CHECK_FALSE(codes.own_class(code('A')));
    CHECK(codes.to_class[code('A')] == m.code_of('A'));
}

namespace {

// The reference engine, refusing (ResourceError) to load more than
// `max_targets` targets or to score a query longer than `max_query`.
class Refusing : public SwEngine {
public:
    Refusing(size_t max_targets, size_t max_query)
        : inner_(make_sw_reference_engine()), max_targets_(max_targets), max_query_(max_query) {}
    std::string name() const override { return "refusing"; }
    void load(const SeqBatch& t, const SwScoring& s) override {
        if (t.size() > max_targets_) throw ResourceError("chunk too large");
        inner_->load(t, s);
    }
    void score(std::span<const uint8_t> q, std::span<int32_t> scores) override {
        if (q.size() > max_query_) throw ResourceError("query too long");
        inner_->score(q, scores);
    }
    SwEngineStats last_stats() const override { return inner_->last_stats(); }

private:
    std::unique_ptr<SwEngine> inner_;
    size_t max_targets_, max_query_;
};

struct SearchRun {
    std::vector<std::vector<SwHit>> hits;
    SwTally tally;
};

SearchRun search_all(const std::vector<std::string>& queries, const std::vector<std::string>& db, SwEngine& engine,
                     const SwSearch::CpuFor& cpu_for, bool rank_beside = false) {
    const SwMatrix& m = SwMatrix::builtin("BLOSUM62");
    static const SwCodes codes(m);
    const Alphabet& abc = Alphabet::amino();
    auto easel = [&](const std::string& s) {
        std::vector<uint8_t> v;
        for (char c : s)
            for (int k = 0; k < abc.Kp(); ++k)
                if (abc.symbol(k) == c) v.push_back(static_cast<uint8_t>(k));
        return v;
    };
    SwQueries q;
    for (size_t i = 0; i < queries.size(); ++i) {
        q.names.push_back("q" + std::to_string(i));
        std::vector<uint8_t> c;
        for (uint8_t x : easel(queries[i])) c.push_back(codes.to_matrix[x]);
        q.classes.push_back(c);
        q.codes.push_back(std::move(c));
    }
    SwSearchOptions opt;
    opt.statistics = *sw_karlin_params("BLOSUM62", 11, 1);
    SwSearch search(SwScoring{&m, 11, 1}, codes, std::move(q), opt);
    // Two chunks.
    for (size_t half = 0; half < 2; ++half) {
        SeqBatch c;
        c.first_index = half * (db.size() / 2);
        for (size_t t = c.first_index; t < (half ? db.size() : db.size() / 2); ++t) {
            for (uint8_t x : easel(db[t])) c.residues.push_back(x);
            c.close_record("t" + std::to_string(t), "");
        }
        search.search(c, engine, cpu_for, [](size_t, uint64_t) {}, rank_beside);
    }
    search.finish(1);
    return {search.hits(), search.tally()};
}

}  // namespace

TEST_CASE("work an engine refuses goes to the CPU's engines: a whole chunk it cannot load, a query it cannot score") {
    std::vector<std::string> queries, db;
    const std::string aa = "ACDEFGHIKLMNPQRSTVWY";
    for (int i = 0; i < 3; ++i) queries.push_back(test::random_text(aa, static_cast<size_t>(10 + 20 * i)));
    for (int i = 0; i < 9; ++i) db.push_back(test::random_text(aa, static_cast<size_t>(test::uniform(1, 60))));
    db[7] = queries[2].substr(5, 30);  // at least one clear hit

    auto ref = make_sw_reference_engine();
    const SearchRun plain = search_all(queries, db, *ref, [](const ResourceError& e) -> SwEngine& { throw e; });
    REQUIRE(plain.tally.engine == "reference");

    auto same_hits = [&](const SearchRun& r) {
        REQUIRE(r.hits.size() == plain.hits.size());
        for (size_t q = 0; q < r.hits.size(); ++q) {
            CHECK(indices(r.hits[q]) == indices(plain.hits[q]));
            for (size_t h = 0; h < r.hits[q].size(); ++h) CHECK(r.hits[q][h].score == plain.hits[q][h].score);
        }
        CHECK(r.tally.cells == plain.tally.cells);
    };
    int asked = 0;
    auto cpu = make_sw_reference_engine();
    const SwSearch::CpuFor to_cpu = [&](const ResourceError&) -> SwEngine& {
        ++asked;
        return *cpu;
    };
    SUBCASE("a chunk it cannot load") {
        Refusing small(db.size() / 2, 1000);  // the second chunk is one target larger
        const SearchRun r = search_all(queries, db, small, to_cpu);
        same_hits(r);
        CHECK(asked == 1);
        CHECK(r.tally.engine == "refusing+reference");
    }
    SUBCASE("a query it cannot score") {
        Refusing short_queries(100, 40);  // the third query is 50 long
        const SearchRun r = search_all(queries, db, short_queries, to_cpu);
        same_hits(r);
        CHECK(asked == 2);  // once a chunk
        CHECK(r.tally.engine == "refusing+reference");
    }
    SUBCASE("each query ranked beside the next one's scan: the same hits, refused work too") {
        Refusing short_queries(db.size() / 2, 40);
        const SearchRun r = search_all(queries, db, short_queries, to_cpu, true);
        same_hits(r);
        CHECK(r.tally.engine == "refusing+reference");
    }
    SUBCASE("refused work is an error where there is no CPU to take it") {
        Refusing short_queries(100, 40);
        CHECK_THROWS_WITH_AS(
            search_all(queries, db, short_queries, [](const ResourceError& e) -> SwEngine& { throw e; }),
            "query too long", ResourceError);
    }
}

TEST_CASE("--stats names the threads and the statistics entry, and leaves that out without E-values") {
    const SwMatrix& m = SwMatrix::builtin("BLOSUM62");
    SwTally t;
    t.targets = 4;
    t.cells = 100;
    t.engine_seconds = 0.5;
    t.engine = "reference";
    const auto k = sw_karlin_params("BLOSUM62", 10, 1);
    const auto with = sw_stats(t, m, SwGapCosts{10, 1}, k, 2, "cpu", 3, 1.0);
    CHECK(with["threads"] == 3);
    CHECK(with["gap_open"] == 10);  // the options' values, BLAST's convention
    CHECK(with["gap_extend"] == 1);
    CHECK(with["statistics"]["blast_existence"] == 10);
    CHECK(with["statistics"]["lambda"] == k->lambda);
    CHECK(with["queries"] == 2);
    CHECK(with["gcups"] == doctest::Approx(100 / 0.5 / 1e9));
    const auto without = sw_stats(t, m, SwGapCosts{10, 1}, std::nullopt, 2, "cpu", 3, 1.0);
    CHECK_FALSE(without.contains("statistics"));
    CHECK(sw_summary_line(t, 2, "cpu", 1.0).rfind("2 queries, 4 targets (0 residues), 0 hits, device cpu (reference)", 0) ==
          0);
}
