// gpu-sw's reference and traceback rule (docs/sw.md §3-§4): the reference
// score and both tracebacks (sw_align, sw_align_full) against a brute force
// over every local alignment of sequences of up to 6 residues, with the
// built-in matrices and random ones and random gap costs; sw_align against
// sw_align_full on longer related sequences with the checkpointed form
// forced, steps 1 and 2 run by every CPU variant's kernels; a 16-bit
// saturating alignment; every alignment re-scored; hand-computed fixtures.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/sw/sw_cpu.hpp"
#include "core/sw/sw_matrix.hpp"
#include "core/sw/sw_reference.hpp"
#include "core/sw/sw_traceback.hpp"
#include "simd_test_support.hpp"
#include "sw_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

int op_rank(char c) { return c == 'M' ? 0 : c == 'I' ? 1 : 2; }

const std::vector<SwCpuVariant>& variants() {
    static const std::vector<SwCpuVariant> v = runnable_variants<SwCpuKernels>(sw_cpu_variants());
    return v;
}

// The rule of sw_traceback.hpp applied literally to every local alignment.
struct Brute {
    std::span<const uint8_t> q, t;
    const SwScoring& sc;
    int64_t best = 0;
    SwAlignment pick;
    uint64_t count = 0;

    // true when a is preferred to b (same score).
    static bool better(const SwAlignment& a, const SwAlignment& b) {
        if (a.tend != b.tend) return a.tend < b.tend;
        if (a.qend != b.qend) return a.qend < b.qend;
        if (a.qbegin != b.qbegin) return a.qbegin > b.qbegin;
        if (a.tbegin != b.tbegin) return a.tbegin > b.tbegin;
        for (size_t k = 0; k < std::min(a.ops.size(), b.ops.size()); ++k) {
            const char x = a.ops[a.ops.size() - 1 - k], y = b.ops[b.ops.size() - 1 - k];
            if (x != y) return op_rank(x) < op_rank(y);
        }
        return a.ops.size() < b.ops.size();
    }
    void offer(const SwAlignment& a) {
        ++count;
        if (a.score > best || (a.score == best && best > 0 && better(a, pick))) {
            best = a.score;
            pick = a;
        }
    }
    void grow(SwAlignment& a, uint64_t i, uint64_t j, char last) {
        if (last == 'M') {
            a.qend = i;
            a.tend = j;
            offer(a);
        }
        const int64_t s0 = a.score;
        if (i < q.size() && j < t.size()) {
            a.ops += 'M';
            a.score = s0 + sc.matrix->score(q[i], t[j]);
            grow(a, i + 1, j + 1, 'M');
            a.ops.pop_back();
        }
        if (i < q.size()) {
            a.ops += 'I';
            a.score = s0 - (last == 'I' ? sc.gap_extend : sc.gap_open);
            grow(a, i + 1, j, 'I');
            a.ops.pop_back();
        }
        if (j < t.size()) {
            a.ops += 'D';
            a.score = s0 - (last == 'D' ? sc.gap_extend : sc.gap_open);
            grow(a, i, j + 1, 'D');
            a.ops.pop_back();
        }
        a.score = s0;
    }
    void run() {
        for (uint64_t i = 0; i < q.size(); ++i)
            for (uint64_t j = 0; j < t.size(); ++j) {
                SwAlignment a;
                a.qbegin = i;
                a.tbegin = j;
                a.ops = "M";
                a.score = sc.matrix->score(q[i], t[j]);
                grow(a, i + 1, j + 1, 'M');
            }
        if (best == 0) pick = SwAlignment{};
    }
};

std::string show(const SwAlignment& a) {
    return std::to_string(a.score) + " q[" + std::to_string(a.qbegin) + "," + std::to_string(a.qend) + ") t[" +
           std::to_string(a.tbegin) + "," + std::to_string(a.tend) + ") " + a.ops;
}

std::string show_codes(const SwMatrix& m, std::span<const uint8_t> s) {
    std::string out;
    for (uint8_t c : s) out += m.letters()[c];
    return out;
}

void check_against_brute(const std::vector<uint8_t>& q, const std::vector<uint8_t>& t, const SwScoring& sc) {
    Brute b{q, t, sc, 0, {}, 0};
    b.run();
    INFO("matrix ", sc.matrix->name(), " open ", sc.gap_open, " extend ", sc.gap_extend, " q=", show_codes(*sc.matrix, q),
         " t=", show_codes(*sc.matrix, t));
    CHECK(sw_reference_score(q, t, sc) == b.best);
    const SwAlignment full = sw_align_full(q, t, sc);
    CHECK_MESSAGE(full == b.pick, show(full), " vs brute ", show(b.pick));
    // sw_align with the kernels of every variant (steps 1 and 2), the
    // traceback bytes whole and in blocks of a few rows.
    for (const auto& v : variants()) {
        SwAlignOptions opt;
        opt.variant = &v;
        const SwAlignment lin = sw_align(q, t, sc, opt);
        opt.memory_cells = static_cast<uint64_t>(uniform(1, 8));
        const SwAlignment chk = sw_align(q, t, sc, opt);
        CHECK_MESSAGE(lin == b.pick, v.name, ": ", show(lin), " vs brute ", show(b.pick));
        CHECK_MESSAGE(chk == b.pick, v.name, ": ", show(chk), " vs brute ", show(b.pick));
        CHECK(sw_rescore(lin, q, t, sc) == lin.score);
    }
}

}  // namespace

TEST_CASE("reference and tracebacks equal a brute force over all local alignments (lengths <= 6)") {
    seed();
    const SwMatrix& b62 = SwMatrix::builtin("BLOSUM62");
    for (int rep = 0; rep < 1500; ++rep) {
        const bool builtin = rep % 2 == 0;
        // Small random alphabets make ties (equal scores, several optimal
        // alignments) common, which is what the rule is about.
        // Very negative entries make a gap pair (I then D, or D then I) beat
        // a pair of residues, so both gap orders tie.
        const SwMatrix rnd = random_matrix(uniform(2, 5), uniform(-16, 0), uniform(0, 6));
        const SwMatrix& m = builtin ? b62 : rnd;
        SwScoring sc = builtin ? SwScoring{&m, 11, 1} : random_gaps(m);
        if (builtin && rep % 4 == 0) sc = random_gaps(m);
        const int alphabet = builtin ? uniform(2, 6) : 0;
        const auto q = random_codes(m, static_cast<size_t>(uniform(0, 6)), alphabet);
        const auto t = random_codes(m, static_cast<size_t>(uniform(0, 6)), alphabet);
        check_against_brute(q, t, sc);
    }
}

TEST_CASE("lengths 0 and 1, and a matrix of negative entries only") {
    const SwMatrix& b62 = SwMatrix::builtin("BLOSUM62");
    const SwScoring sc{&b62, 11, 1};
    const auto w = sw_codes(b62, "W"), a = sw_codes(b62, "A"), none = sw_codes(b62, "");
    CHECK(sw_reference_score(w, w, sc) == 11);
    CHECK(sw_reference_score(w, a, sc) == 0);
    CHECK(sw_reference_score(none, w, sc) == 0);
    CHECK(sw_reference_score(w, none, sc) == 0);
    CHECK(sw_align(none, none, sc) == SwAlignment{});
    const SwAlignment ww = sw_align(w, w, sc);
    CHECK(ww.score == 11);
    CHECK(ww.ops == "M");
    const SwMatrix neg = random_matrix(4, -5, -1);
    const SwScoring sn{&neg, 3, 1};
    const auto q = random_codes(neg, 6), t = random_codes(neg, 6);
    CHECK(sw_reference_score(q, t, sn) == 0);
    CHECK(sw_align(q, t, sn).ops.empty());
}

TEST_CASE("hand-computed fixtures (BLOSUM62, open 11, extend 1)") {
    const SwMatrix& m = SwMatrix::builtin("blosum62");
    const SwScoring sc{&m, 11, 1};
    const auto q = sw_codes(m, "MKVLAAGIVGLLLAW");
    // MKVLAA (5+5+4+4+4+4 = 26), a gap of 5 in the query (11 + 4 = 15),
    // GIVGLLLAW (6+4+4+6+4+4+4+4+11 = 47): 26 - 15 + 47 = 58, as parasail_aligner gives.
    const auto t = sw_codes(m, "MKVLAAXXXXXGIVGLLLAW");
    CHECK(sw_reference_score(q, t, sc) == 58);
    const SwAlignment a = sw_align(q, t, sc);
    CHECK(a.score == 58);
    CHECK(a.qbegin == 0);
    CHECK(a.qend == 15);
    CHECK(a.tbegin == 0);
    CHECK(a.tend == 20);
    CHECK(sw_cigar(a.ops) == "6M5D9M");
    const SwColumnCounts c = sw_count_columns(a, q, t);
    CHECK(c.length == 20);
    CHECK(c.identities == 15);
    CHECK(c.mismatches == 0);
    CHECK(c.gaps == 5);
    CHECK(c.gap_opens == 1);
    // WWWW against WWW: three W pairs (33); the end is the first cell that
    // reaches 33 in (target, query) order: target position 2 with query
    // position 2; the start the latest that reaches it: (0, 0).
    const auto w4 = sw_codes(m, "WWWW"), w3 = sw_codes(m, "WWW");
    const SwAlignment ww = sw_align(w4, w3, sc);
    CHECK(ww.score == 33);
    CHECK(ww.qbegin == 0);
    CHECK(ww.qend == 3);
    CHECK(ww.tend == 3);
    // Letters outside the matrix score as '*': U against U is '*' against '*' (+1).
    const auto u = sw_codes(m, "WUW");
    CHECK(sw_reference_score(u, u, sc) == 23);
    CHECK(sw_codes(m, "u") == sw_codes(m, "*"));
    CHECK(sw_codes(m, "w") == sw_codes(m, "W"));
}

TEST_CASE("equal gap orders: the column string read from the end that comes first with M < I < D") {
    // ACA against ADA where C-D costs more than two gaps: ACA/A-DA... two
    // alignments of score 6 (5 - 2 - 2 + 5) from the same start to the same
    // end, MIDM and MDIM. Read from the end, MDIM is M I D M and MIDM is
    // M D I M: the rule takes MDIM.
    const SwMatrix m = SwMatrix::parse_ncbi("   A C D *\nA 5 -9 -9 -9\nC -9 5 -16 -9\nD -9 -16 5 -9\n* -9 -9 -9 1\n",
                                            "fixture", "fixture");
    const SwScoring sc{&m, 2, 1};
    const auto q = sw_codes(m, "ACA"), t = sw_codes(m, "ADA");
    for (const SwAlignment& a : {sw_align(q, t, sc), sw_align_full(q, t, sc)}) {
        CHECK(a.score == 6);
        CHECK(a.ops == "MDIM");
    }
}

TEST_CASE("sw_align equals sw_align_full on related sequences, checkpointed or not") {
    const SwMatrix& b62 = SwMatrix::builtin("BLOSUM62");
    for (int rep = 0; rep < 120; ++rep) {
        const SwMatrix rnd = random_matrix(uniform(3, 24), uniform(-8, -1), uniform(1, 12));
        const SwMatrix& m = rep % 3 ? b62 : rnd;
        const SwScoring sc = rep % 2 ? SwScoring{&m, 11, 1} : random_gaps(m);
        const auto q = random_codes(m, static_cast<size_t>(uniform(1, 50)), rep % 3 ? 20 : 0);
        auto t = mutated(m, q);
        if (uniform(0, 1)) {  // flanks, so that the alignment is local
            auto f = random_codes(m, static_cast<size_t>(uniform(0, 10)));
            t.insert(t.begin(), f.begin(), f.end());
        }
        INFO("q=", show_codes(m, q), " t=", show_codes(m, t), " open ", sc.gap_open, " extend ", sc.gap_extend);
        const SwAlignment full = sw_align_full(q, t, sc);
        CHECK(full.score == sw_reference_score(q, t, sc));
        SwAlignOptions opt;
        opt.memory_cells = rep % 4 == 0 ? (uint64_t{1} << 26) : static_cast<uint64_t>(uniform(1, 300));
        opt.variant = &variants()[static_cast<size_t>(rep) % variants().size()];
        INFO("variant ", opt.variant->name);
        const SwAlignment lin = sw_align(q, t, sc, opt);
        CHECK_MESSAGE(lin == full, show(lin), " vs full ", show(full));
        CHECK(sw_rescore(lin, q, t, sc) == lin.score);
    }
}

TEST_CASE("alignments past 16 bits: the ends come from the 32-bit kernels") {
    const SwMatrix& m = SwMatrix::builtin("BLOSUM62");
    const SwScoring sc{&m, 11, 1};
    // 3,100 W against 3,000 W, flanked: 33,000 with a single optimal
    // alignment length but many placements (the rule picks the first end
    // and then the latest start).
    std::vector<uint8_t> q(3100, m.code_of('W'));
    std::vector<uint8_t> t = sw_codes(m, "AAGP");
    t.insert(t.end(), 3000, m.code_of('W'));
    const auto tail = sw_codes(m, "PPG");
    t.insert(t.end(), tail.begin(), tail.end());
    for (const auto& v : variants()) {
        SwAlignOptions opt;
        opt.variant = &v;
        const SwAlignment a = sw_align(q, t, sc, opt);
        INFO("variant ", v.name);
        CHECK(a.score == 33000);
        CHECK(a.tbegin == 4);
        CHECK(a.tend == 3004);
        CHECK(a.qend == 3000);  // the first end: target position 3003 with the smallest query position
        CHECK(a.qbegin == 0);
        CHECK(a.ops == std::string(3000, 'M'));
    }
}

TEST_CASE("sw_rescore refuses columns that do not fit their coordinates") {
    const SwMatrix& m = SwMatrix::builtin("BLOSUM62");
    const SwScoring sc{&m, 11, 1};
    const auto q = sw_codes(m, "ACDE"), t = sw_codes(m, "ACDE");
    SwAlignment a{8, 0, 2, 0, 2, "MM"};
    CHECK(sw_rescore(a, q, t, sc) == 4 + 9);
    a.ops = "MIM";
    CHECK_THROWS_AS((void)sw_rescore(a, q, t, sc), InternalError);
    a.ops = "IM";
    CHECK_THROWS_AS((void)sw_rescore(a, q, t, sc), InternalError);
}
