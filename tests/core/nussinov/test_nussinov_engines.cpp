// gpu-nussinov's engines (docs/nussinov.md): the reference against every
// non-crossing structure of short sequences, and the CPU engine, every
// variant of its table by name, against the reference on fresh random
// sequences every run (lengths across the SIMD widths and tile sizes,
// min_loop 0/1/3, with and without G-U, random weights, N letters), with
// the structure check of nussinov_traceback.hpp applied to every structure.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/nussinov/nussinov_cpu.hpp"
#include "core/nussinov/nussinov_engine.hpp"
#include "core/nussinov/nussinov_traceback.hpp"
#include "core/nussinov/rna_codes.hpp"
#include "simd_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using warpdp::test::random_text;
using warpdp::test::uniform;

namespace {

// Every balanced dot-bracket string of length n: each one is a set of
// non-crossing pairs, and every such set is one of them.
void balanced(size_t n, std::string& s, int open, std::vector<std::string>& out) {
    if (s.size() == n) {
        if (open == 0) out.push_back(s);
        return;
    }
    const size_t left = n - s.size();
    for (char c : {'.', '(', ')'}) {
        const int o = open + (c == '(') - (c == ')');
        if (o < 0 || static_cast<size_t>(o) > left - 1) continue;
        s.push_back(c);
        balanced(n, s, o, out);
        s.pop_back();
    }
}

NussinovParams random_params(int min_loop, bool gu) {
    NussinovParams p;
    p.min_loop = min_loop;
    p.gu = gu;
    if (uniform(0, 2) != 0) {  // else unit weights
        p.w_gc = uniform(0, 5);
        p.w_au = uniform(0, 5);
        p.w_gu = uniform(0, 5);
    }
    return p;
}

std::string describe(const std::string& seq, const NussinovParams& p) {
    return "seq=" + seq + " min_loop=" + std::to_string(p.min_loop) + " gu=" + std::to_string(p.gu) +
           " GC=" + std::to_string(p.w_gc) + " AU=" + std::to_string(p.w_au) + " GU=" + std::to_string(p.w_gu);
}

NussinovFold fold_with(NussinovEngine& e, const std::vector<uint8_t>& codes, const NussinovParams& p,
                       bool with_structure = true) {
    const std::span<const uint8_t> one[] = {codes};
    NussinovFold f;
    e.fold(one, p, with_structure, std::span<NussinovFold>(&f, 1));
    return f;
}

// The invariants every reported structure keeps: valid, and worth its score.
void check_fold(const std::vector<uint8_t>& codes, const NussinovParams& p, const NussinovFold& f) {
    const NussinovStructureCheck c = nussinov_check_structure(codes, p, f.structure);
    CHECK_MESSAGE(c.ok(), c.error);
    CHECK(c.score == f.score);
    CHECK(c.pairs == f.pairs);
}

}  // namespace

TEST_CASE("letters become engine codes: T as U, any case, IUPAC and gaps never pair") {
    CHECK(rna_codes_of("ACGUTacgut") == std::vector<uint8_t>{0, 1, 2, 3, 3, 0, 1, 2, 3, 3});
    for (char c : std::string("NnRYKMSWBDHV.*~-X1"))
        CHECK(rna_code_of_letter(c) == kRnaOther);
    std::vector<uint8_t> alpha{0, 3, 15, 4, 2, 5};  // RNA-alphabet codes: A U N gap G R
    CHECK(to_rna_engine_codes(alpha) == 3);
    CHECK(alpha == std::vector<uint8_t>{0, 3, kRnaOther, kRnaOther, 2, kRnaOther});
    for (uint8_t c = 0; c < 5; ++c) CHECK(NussinovParams{}.weight(c, kRnaOther) == -1);
    // --strict's alphabet: the same codes for A C G U T, every other letter illegal.
    const Alphabet& acgu = Alphabet::rna_acgu();
    for (char c : std::string("ACGUTacgut"))
        CHECK(acgu.digitize(static_cast<unsigned char>(c)) == Alphabet::rna().digitize(static_cast<unsigned char>(c)));
    for (char c : std::string("NnRy.*~-_X"))
        CHECK(acgu.digitize(static_cast<unsigned char>(c)) == Alphabet::kIllegal);
    CHECK(acgu.digitize(' ') == Alphabet::kIgnored);
}

TEST_CASE("the structure check rejects what is not a structure of the sequence") {
    const auto s = rna_codes_of("GAAACNAAAU");
    NussinovParams p;
    CHECK(nussinov_check_structure(s, p, "(...).....").ok());
    CHECK(nussinov_check_structure(s, p, "(...).....").score == 1);
    CHECK(!nussinov_check_structure(s, p, "(...)....").ok());      // length
    CHECK(!nussinov_check_structure(s, p, "((..))....").ok());     // A-A
    CHECK(!nussinov_check_structure(s, p, "(....(...)").ok());     // unbalanced
    CHECK(!nussinov_check_structure(s, p, ")...(.....").ok());
    CHECK(!nussinov_check_structure(s, p, ".....(...)").ok());     // N never pairs
    CHECK(!nussinov_check_structure(s, p, "(...)...x.").ok());
    p.min_loop = 4;
    CHECK(!nussinov_check_structure(s, p, "(...).....").ok());     // 3 inside < 4
    const auto gu = rna_codes_of("GAAU");
    CHECK(nussinov_check_structure(gu, p = {}, "(..)").score == 1);
    p.gu = false;
    CHECK(!nussinov_check_structure(gu, p, "(..)").ok());
}

TEST_CASE("the traceback rule: pair first, then the smallest split") {
    auto ref = make_nussinov_reference_engine();
    NussinovParams p;
    p.min_loop = 0;
    CHECK(fold_with(*ref, rna_codes_of("GGCC"), p).structure == "(())");
    // Both (0,1) and (0,3)... only i = 0 pairs with 1 or 3: the pair (0, 3)
    // scores 1 + C(1, 2) = 1, the split at k = 1 scores 1 + 0; rule 1 wins.
    CHECK(fold_with(*ref, rna_codes_of("GCAC"), p).structure == "(..)");
    // Neither end pairs: the smallest split that keeps the optimum, k = 0 (unpaired G).
    CHECK(fold_with(*ref, rna_codes_of("AGCA"), p).structure == ".().");
    p.min_loop = 1;
    CHECK(fold_with(*ref, rna_codes_of("GAC"), p).structure == "(.)");
    CHECK(fold_with(*ref, rna_codes_of("GC"), p).structure == "..");
    const NussinovFold empty = fold_with(*ref, {}, p);
    CHECK(empty.score == 0);
    CHECK(empty.structure.empty());
}

TEST_CASE("the reference is the best of every non-crossing structure (n <= 12)") {
    auto ref = make_nussinov_reference_engine();
    int cases = 0;
    for (size_t n = 0; n <= 12; ++n) {
        std::vector<std::string> all;
        std::string s;
        balanced(n, s, 0, all);
        for (int min_loop : {0, 1, 3})
            for (bool gu : {true, false})
                for (int rep = 0; rep < 3; ++rep) {
                    const NussinovParams p = random_params(min_loop, gu);
                    const std::string seq = random_text(uniform(0, 4) == 0 ? "ACGUN" : "ACGU", n);
                    const auto codes = rna_codes_of(seq);
                    int64_t best = 0;
                    for (const auto& st : all) {
                        const auto c = nussinov_check_structure(codes, p, st);
                        if (c.ok()) best = std::max(best, c.score);
                    }
                    const NussinovFold f = fold_with(*ref, codes, p);
                    INFO(describe(seq, p));
                    CHECK(f.score == best);
                    check_fold(codes, p, f);
                    CHECK(fold_with(*ref, codes, p, false).score == best);
                    ++cases;
                }
    }
    MESSAGE(cases << " sequences against every structure");
}

TEST_CASE("every CPU variant equals the reference: scores and structures") {
    auto ref = make_nussinov_reference_engine();
    // Across the vector widths (8, 16), the tiles (16, 32, 64) and the
    // lengths where the automatic tile changes.
    std::vector<size_t> lengths{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65,
                                95, 96, 97, 127, 128, 129, 150, 191, 192, 193, 255, 256, 257, 300};
    for (int extra = 0; extra < 15; ++extra) lengths.push_back(static_cast<size_t>(uniform(1, 280)));
    struct Setup {
        NussinovCpuOptions opt;
        const char* what;
    };
    std::vector<Setup> setups;
    for (uint32_t tile : {0u, 16u, 32u, 64u}) {
        Setup s{};
        s.opt.tile = tile;
        s.what = "one thread";
        setups.push_back(s);
    }
    {
        Setup s{};
        s.opt.threads = 3;
        // Threads over the tiles of a sequence of 40 and more folded alone; a
        // batch holding three or more such sequences folds them side by side.
        s.opt.long_from = 40;
        s.opt.tile = 16;
        s.what = "tiles on threads";
        setups.push_back(s);
        s.opt.force_int32 = true;
        s.what = "tiles on threads, 32-bit";
        setups.push_back(s);
        s.opt.tile = 0;
        s.opt.long_from = 1u << 30;
        s.what = "sequences on threads, 32-bit";
        setups.push_back(s);
    }
    for (const NussinovCpuVariant& v : test::runnable_variants(nussinov_cpu_variants())) {
        int compared = 0;
        for (const Setup& setup : setups) {
            auto engine = make_nussinov_cpu_engine(setup.opt, v);
            // One batch per setup: every length, each with its own parameters.
            std::vector<std::vector<uint8_t>> codes;
            std::vector<std::string> text;
            std::vector<NussinovParams> params;
            for (size_t n : lengths) {
                const int min_loop = std::vector<int>{0, 1, 3}[static_cast<size_t>(uniform(0, 2))];
                params.push_back(random_params(min_loop, uniform(0, 1) == 1));
                text.push_back(random_text(uniform(0, 3) == 0 ? "ACGUNacgt" : "ACGU", n));
                codes.push_back(rna_codes_of(text.back()));
            }
            // The engine folds a batch under one parameter set: batches of
            // equal parameters go together, the rest one by one.
            for (size_t k = 0; k < lengths.size(); ++k) {
                const NussinovFold want = fold_with(*ref, codes[k], params[k]);
                const NussinovFold got = fold_with(*engine, codes[k], params[k]);
                INFO(std::string(v.name) << " " << setup.what << " tile " << setup.opt.tile << " n=" << lengths[k] << " "
                            << describe(text[k], params[k]));
                CHECK(got.score == want.score);
                CHECK(got.structure == want.structure);
                CHECK(got.pairs == want.pairs);
                check_fold(codes[k], params[k], got);
                CHECK(fold_with(*engine, codes[k], params[k], false).score == want.score);
                ++compared;
            }
            // A batch of them under the first parameters, in order.
            std::vector<std::span<const uint8_t>> spans(codes.begin(), codes.end());
            std::vector<NussinovFold> got(codes.size()), want(codes.size());
            engine->fold(spans, params[0], true, got);
            ref->fold(spans, params[0], true, want);
            for (size_t k = 0; k < codes.size(); ++k) {
                INFO(std::string(v.name) << " " << setup.what << " batch k=" << k);
                CHECK(got[k].score == want[k].score);
                CHECK(got[k].structure == want[k].structure);
            }
        }
        MESSAGE(std::string(v.name) << ": " << compared << " folds equal to the reference");
    }
}

TEST_CASE("16-bit cells up to their last value, 32-bit beyond: equal to the reference") {
    auto ref = make_nussinov_reference_engine();
    for (const NussinovCpuVariant& v : test::runnable_variants(nussinov_cpu_variants())) {
        auto engine = make_nussinov_cpu_engine(2, v);
        for (int rep = 0; rep < 6; ++rep) {
            const size_t n = static_cast<size_t>(uniform(60, 140));
            NussinovParams p;
            p.min_loop = uniform(0, 3);
            // GC pairs at the largest weight 16-bit cells hold for n bases, or just past it.
            p.w_gc = static_cast<int>(32767 / (n / 2)) + (rep % 2);
            p.w_au = uniform(0, p.w_gc);
            p.w_gu = uniform(0, p.w_gc);
            CHECK(nussinov_fits_int16(n, p) == (rep % 2 == 0));
            // Mostly G and C, so the score comes near the bound.
            const std::string seq = random_text(rep < 4 ? "GGGGCCCCAU" : "GCAUN", n);
            const auto codes = rna_codes_of(seq);
            const NussinovFold want = fold_with(*ref, codes, p), got = fold_with(*engine, codes, p);
            INFO(std::string(v.name) << " " << describe(seq, p));
            CHECK(got.score == want.score);
            CHECK(got.structure == want.structure);
            check_fold(codes, p, got);
        }
    }
}

TEST_CASE("the memory plan refuses a table past the budget, says which sequence and names the length that fits") {
    NussinovParams p;
    CHECK(nussinov_cpu_table_bytes(0, p) == 0);
    const uint64_t budget = 4u << 20;
    const uint64_t max = nussinov_cpu_max_length(p, budget);
    CHECK(nussinov_cpu_table_bytes(max, p) <= budget);
    CHECK(nussinov_cpu_table_bytes(max + 1, p) > budget);
    CHECK(max > 1500);  // 2 bytes a cell, n^2/2 cells
    // The README's figure: n = 100,000 takes 32-bit cells, 18.6 GiB.
    CHECK_FALSE(nussinov_fits_int16(100000, p));
    CHECK(std::round(static_cast<double>(nussinov_cpu_table_bytes(100000, p)) / (1ull << 30) * 10) == 186);
    NussinovCpuOptions opt;
    opt.memory_bytes = budget;
    auto engine = make_nussinov_cpu_engine(opt, choose_variant<nussinov_cpu_variants>());
    const std::vector<uint8_t> ok(100, kRnaA), big(max + 1, kRnaA);
    const std::span<const uint8_t> seqs[] = {ok, big};
    std::vector<NussinovFold> out(2);
    out[0].score = -1;
    try {
        engine->fold(seqs, p, true, out);
        FAIL("no ResourceError");
    } catch (const NussinovSequenceError& e) {
        CHECK(e.index() == 1);  // so that the tool can name the record
        CHECK(std::string(e.what()).find("sequences up to " + std::to_string(max) + " bases fit") != std::string::npos);
    }
    CHECK(out[0].score == -1);  // refused before folding any
}

TEST_CASE("a long sequence on threads over tiles equals one thread") {
    // Past the reference's reach: the threaded tiles against the same
    // variant on one thread with small tiles, both checked structurally.
    for (const NussinovCpuVariant& v : test::runnable_variants(nussinov_cpu_variants())) {
        NussinovCpuOptions one, many;
        one.tile = 16;
        many.threads = 2;
        many.long_from = 1;
        auto e1 = make_nussinov_cpu_engine(one, v), e2 = make_nussinov_cpu_engine(many, v);
        const size_t n = static_cast<size_t>(uniform(1500, 2100));
        NussinovParams p = random_params(uniform(0, 3), true);
        const std::string seq = random_text("ACGUN", n);
        const auto codes = rna_codes_of(seq);
        const NussinovFold a = fold_with(*e1, codes, p), b = fold_with(*e2, codes, p);
        INFO(std::string(v.name) << " n=" << n);
        CHECK(a.score == b.score);
        CHECK(a.structure == b.structure);
        check_fold(codes, p, b);
    }
}
