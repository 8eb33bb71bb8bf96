// Easel's generators. The Mersenne Twister's core (twist and tempering) is
// checked on the reference seeding against the published MT19937 vectors
// and std::mt19937; Easel's own seeding and the fast LCG are checked
// against their recurrences written independently (a jump-ahead closed
// form); the sampling helpers by what they must return.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "core/base/easel_random.hpp"
#include "core/base/errors.hpp"
#include "test_support.hpp"

using namespace warpdp;

namespace {

// init_genrand of the 2002 reference code (what std::mt19937 uses).
std::array<uint32_t, EaselRandom::kMtWords> reference_table(uint32_t s) {
    std::array<uint32_t, EaselRandom::kMtWords> t{};
    t[0] = s;
    for (uint32_t z = 1; z < t.size(); ++z) t[z] = 1812433253u * (t[z - 1] ^ (t[z - 1] >> 30)) + z;
    return t;
}

// x -> a x + c applied n times, by squaring the affine map (mod 2^32).
uint32_t lcg_jump(uint32_t x, uint64_t n) {
    uint32_t a = 69069u, c = 1u, A = 1u, C = 0u;  // (A, C): the map so far
    for (; n; n >>= 1) {
        if (n & 1) { C = a * C + c; A = a * A; }
        c = a * c + c;
        a = a * a;
    }
    return A * x + C;
}

}  // namespace

TEST_CASE("the Mersenne Twister core gives MT19937's published outputs on the reference seeding") {
    EaselRandom r = EaselRandom::mersenne_from_table(reference_table(5489u));
    std::mt19937 ref;  // default seed 5489
    uint32_t first = 0, last = 0;
    for (int n = 1; n <= 10000; ++n) {
        const uint32_t x = r.next_u32();
        REQUIRE(x == ref());
        if (n == 1) first = x;
        last = x;
    }
    CHECK(first == 3499211612u);  // init_genrand(5489)'s first output
    CHECK(last == 4123659995u);   // the 10000th, as the C++ standard requires of mt19937
    EaselRandom r2 = EaselRandom::mersenne_from_table(reference_table(19650218u));
    std::mt19937 ref2(19650218u);
    for (int n = 0; n < 2000; ++n) REQUIRE(r2.next_u32() == ref2());
}

TEST_CASE("Easel's Mersenne seeding fills the table with the 69069 LCG from the seed, then twists") {
    for (uint32_t seed : {1u, 42u, 7u, 4000000000u}) {
        std::array<uint32_t, EaselRandom::kMtWords> t{};
        t[0] = seed;
        for (size_t z = 1; z < t.size(); ++z) t[z] = 69069u * t[z - 1];
        EaselRandom a(EaselRandom::Kind::mersenne, seed);
        EaselRandom b = EaselRandom::mersenne_from_table(t);
        CHECK(a.seed() == seed);
        for (int n = 0; n < 1500; ++n) REQUIRE(a.next_u32() == b.next_u32());  // crosses a refill
    }
}

TEST_CASE("the fast kind is x <- 69069 x + 1 from Jenkins' mix of the seed, and uniform() is x / 2^32") {
    for (uint32_t seed : {42u, 1u, 123456789u}) {
        EaselRandom r(EaselRandom::Kind::fast, seed);
        const uint32_t x0 = easel_mix3(seed, 87654321u, 12345678u);
        REQUIRE(x0 != 0);
        for (uint64_t n = 1; n <= 300; ++n) {
            const double u = r.uniform();
            const uint32_t want = lcg_jump(x0, n);
            REQUIRE(u == static_cast<double>(want) / 4294967296.0);
            REQUIRE(u >= 0.0);
            REQUIRE(u < 1.0);
        }
    }
}

TEST_CASE("Jenkins' mix spreads neighbouring inputs: distinct seeds start distinct streams") {
    std::vector<uint32_t> firsts;
    for (uint32_t s = 1; s <= 1000; ++s) firsts.push_back(EaselRandom(EaselRandom::Kind::fast, s).next_u32());
    std::sort(firsts.begin(), firsts.end());
    CHECK(std::adjacent_find(firsts.begin(), firsts.end()) == firsts.end());
    // the mix is not the identity, and depends on every argument
    CHECK(easel_mix3(1, 2, 3) != easel_mix3(1, 2, 4));
    CHECK(easel_mix3(1, 2, 3) != easel_mix3(2, 2, 3));
    CHECK(easel_mix3(1, 2, 3) != easel_mix3(1, 3, 3));
}

TEST_CASE("reseeding with seed() restarts the stream, for both kinds and for an arbitrary seed (0)") {
    for (auto kind : {EaselRandom::Kind::fast, EaselRandom::Kind::mersenne}) {
        for (uint32_t seed : {42u, 0u}) {
            EaselRandom r(kind, seed);
            CHECK(r.seed() != 0);
            if (seed != 0) CHECK(r.seed() == seed);
            std::vector<uint32_t> a, b;
            for (int n = 0; n < 700; ++n) a.push_back(r.next_u32());
            r.reseed(r.seed());
            for (int n = 0; n < 700; ++n) b.push_back(r.next_u32());
            CHECK(a == b);
        }
    }
}

TEST_CASE("easel_fnorm divides by the sum, is uniform on a zero vector, flushes subnormal quotients on request") {
    std::array<float, 3> p = {1.0f, 2.0f, 1.0f};
    easel_fnorm(p, false);
    CHECK(p[0] == 0.25f);
    CHECK(p[1] == 0.5f);
    CHECK(p[2] == 0.25f);
    std::array<float, 3> z = {0.0f, 0.0f, 0.0f};
    easel_fnorm(z, false);
    CHECK(z[0] == static_cast<float>(1.0 / 3.0));
    CHECK(z[2] == z[0]);
    // Kahan: the small terms are not lost next to the large one
    std::vector<float> v(1001, 1.0f);
    v[0] = 1.0e8f;
    float plain = 0.0f;
    for (float x : v) plain += x;
    easel_fnorm(v, false);
    CHECK(v[0] == static_cast<float>(1.0e8f / 100001000.0f));
    CHECK(plain == 1.0e8f);  // the naive float sum would have lost them
    std::array<float, 2> tiny = {1.0e-30f, 1.0e10f};
    std::array<float, 2> tiny_ftz = tiny;
    easel_fnorm(tiny, false);
    easel_fnorm(tiny_ftz, true);
    CHECK(tiny[0] > 0.0f);
    CHECK(std::fpclassify(tiny[0]) == FP_SUBNORMAL);
    CHECK(tiny_ftz[0] == 0.0f);
}

TEST_CASE("easel_flush is a flush to zero; easel_fnorm_fixed equals easel_fnorm with flushing, bit for bit") {
    warpdp::test::seed();
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    const float specials[] = {0.0f, -0.0f, 1.0f, 3.0f, 1.0e-39f, -1.0e-39f, 1.0e-45f, 1.17549435e-38f, 2.0e-38f,
                              3.0e38f, -2.5f, inf, -inf, nan};
    std::vector<float> vals(std::begin(specials), std::end(specials));
    for (int n = 0; n < 200; ++n) {
        const int e = warpdp::test::uniform(-149, 127);
        const float v = std::ldexp(static_cast<float>(warpdp::test::uniform(1, 1 << 24)) / static_cast<float>(1 << 24), e);
        vals.push_back(n % 4 == 0 ? -v : v);
    }
    auto same = [](float a, float b) {
        return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b) || (std::isnan(a) && std::isnan(b));
    };
    for (float v : vals) {
        CAPTURE(v);
        CHECK(same(easel_flush(v), v < 1.17549435e-38f && v > -1.17549435e-38f ? 0.0f * v : v));
    }
    for (float a : vals)
        for (float b : vals) {
            CAPTURE(a);
            CAPTURE(b);
            std::array<float, 2> want = {a, b}, got = {a, b};
            easel_fnorm(want, true);
            easel_fnorm_fixed(got);
            CHECK(same(got[0], want[0]));
            CHECK(same(got[1], want[1]));
            std::array<float, 4> want4 = {a, b, vals[static_cast<size_t>(warpdp::test::uniform(0, 20))],
                                          vals[static_cast<size_t>(warpdp::test::uniform(0, 213))]};
            std::array<float, 4> got4 = want4;
            easel_fnorm(want4, true);
            easel_fnorm_fixed(got4);
            for (size_t z = 0; z < 4; ++z) CHECK(same(got4[z], want4[z]));
        }
}

namespace {

// easel_fchoose_fixed against easel_fchoose: the same index, or both
// refusing, and the generators still in step.
template <size_t N>
void check_fchoose_fixed(const std::array<float, N>& p, uint32_t seed) {
    EaselRandom a(EaselRandom::Kind::fast, seed), b(EaselRandom::Kind::fast, seed);
    int want = -1, got = -1;
    try {
        want = easel_fchoose(a, p);
    } catch (const warpdp::InternalError&) {
        want = -2;
    }
    try {
        got = easel_fchoose_fixed(b, p);
    } catch (const warpdp::InternalError&) {
        got = -2;
    }
    CHECK(got == want);
    CHECK(a.next_u32() == b.next_u32());
}

}  // namespace

TEST_CASE("easel_fchoose_fixed picks as easel_fchoose does") {
    warpdp::test::seed();
    const float pool[] = {0.0f, 0.0f, 1.0f, 0.25f, 1.0e-39f, 1.0e-30f, 3.0e38f,
                          std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()};
    auto pick = [&] {
        const int z = warpdp::test::uniform(0, 11);
        return z < 9 ? pool[z] : static_cast<float>(warpdp::test::uniform(0, 1000)) / 1000.0f;
    };
    for (int n = 0; n < 4000; ++n) {
        const auto seed = static_cast<uint32_t>(warpdp::test::uniform(0, 1 << 30));
        check_fchoose_fixed(std::array<float, 2>{pick(), pick()}, seed);
        check_fchoose_fixed(std::array<float, 4>{pick(), pick(), pick(), pick()}, seed);
        std::array<float, 4> p = {pick(), pick(), pick(), pick()};
        easel_fnorm(p, true);  // as the traceback hands them over
        check_fchoose_fixed(p, seed);
    }
}

TEST_CASE("easel_fchoose draws once and returns the first index whose cumulative share exceeds the draw") {
    EaselRandom r(EaselRandom::Kind::fast, 42u);
    EaselRandom shadow = r;
    const std::array<float, 4> p = {0.1f, 0.0f, 0.6f, 0.3f};
    std::array<int, 4> hits{};
    double norm = 0.0;
    for (float x : p) norm += static_cast<double>(x);
    for (int n = 0; n < 20000; ++n) {
        const double u = shadow.uniform();
        const int c = easel_fchoose(r, p);
        double lo = 0.0;
        for (int z = 0; z < c; ++z) lo += static_cast<double>(p[static_cast<size_t>(z)]);
        REQUIRE(u >= lo / norm);
        REQUIRE(u < (lo + static_cast<double>(p[static_cast<size_t>(c)])) / norm);
        ++hits[static_cast<size_t>(c)];
    }
    CHECK(hits[1] == 0);
    CHECK(std::abs(hits[0] / 20000.0 - 0.1) < 0.01);
    CHECK(std::abs(hits[2] / 20000.0 - 0.6) < 0.015);
    const std::array<float, 2> bad = {std::nanf(""), 1.0f};
    CHECK_THROWS_AS(easel_fchoose(r, bad), InternalError);
}
