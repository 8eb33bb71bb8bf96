// Easel's random number generators (Easel 0.48 esl_random), reproduced
// stream for stream, and the two sampling helpers HMMER's stochastic
// traceback uses (docs/hmmer-filters.md §16.3). hmmsearch's pipeline runs
// the *fast* kind (a 32-bit LCG), not the Mersenne Twister that Easel
// offers as its default.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>

namespace warpdp {

class EaselRandom {
public:
    enum class Kind {
        mersenne,  // esl_randomness_Create: MT19937, seeded by Knuth's 69069 LCG
        fast,      // esl_randomness_CreateFast: x = 69069 x + 1 (mod 2^32)
    };
    static constexpr int kMtWords = 624;

    // seed 0 picks an arbitrary seed from the clock and the process id, as
    // Easel does; seed() then tells which.
    EaselRandom(Kind kind, uint32_t seed);

    // Back to the start of the stream of a seed (esl_randomness_Init); the
    // pipeline reseeds with seed() before every region's trace ensemble.
    void reseed(uint32_t seed);
    uint32_t seed() const noexcept { return seed_; }
    Kind kind() const noexcept { return kind_; }

    uint32_t next_u32() noexcept;
    // Uniform on [0, 1): the 32-bit draw over 2^32, in double (esl_random).
    double uniform() noexcept { return static_cast<double>(next_u32()) / 4294967296.0; }

    // A Mersenne Twister whose table is given as is, to be twisted before
    // its first draw: lets the tests run the MT19937 core on the reference
    // seeding and compare with the published test vectors.
    static EaselRandom mersenne_from_table(const std::array<uint32_t, kMtWords>& table);

private:
    EaselRandom() = default;
    void twist() noexcept;
    Kind kind_ = Kind::fast;
    uint32_t seed_ = 0;
    uint32_t x_ = 0;                      // fast kind's state
    std::array<uint32_t, kMtWords> mt_{};  // Mersenne kind's table
    int mti_ = 0;
};

// Bob Jenkins' 96-bit mix as Easel uses it (esl_rnd_mix3): spreads the
// seed of the fast kind and makes the arbitrary seed.
uint32_t easel_mix3(uint32_t a, uint32_t b, uint32_t c) noexcept;

// A float below the smallest normal in magnitude becomes a zero of its sign
// (as 0 * v does), decided by its exponent field (0 exactly for zeros and
// subnormals) rather than by comparisons, which a zero passes: easel_fnorm's
// compensation is often, not always, 0, and such branches mispredict.
inline float easel_flush(float v) noexcept {
    const auto b = std::bit_cast<uint32_t>(v);
    return std::bit_cast<float>(b & ((b & 0x7f800000u) != 0 ? 0xffffffffu : 0x80000000u));
}

// esl_vec_FNorm: divides by the Kahan-compensated float sum, or makes the
// vector uniform (1/n, computed in double) when the sum is 0. With
// flush_to_zero, every float result below the smallest normal becomes 0,
// as in hmmsearch, which runs with the SSE flush-to-zero bit set.
void easel_fnorm(std::span<float> p, bool flush_to_zero) noexcept;

namespace detail {
// esl_vec_FNorm's compensated sum, then the division (or 1/n where the sum
// is 0), each result through `f`. After a finite first value the
// compensation is exactly +0, so the loop starts at the second
// (docs/hmmer-filters.md §16.3).
template <typename Span, typename Flush>
inline void easel_fnorm_with(Span p, Flush f) noexcept {
    float sum = 0.0f, comp = 0.0f;
    size_t i = 0;
    if (!p.empty() && std::isfinite(p[0])) {
        sum = f(0.0f + f(p[0]));
        i = 1;
    }
    for (; i < p.size(); ++i) {
        const float v = p[i];
        const float y = f(v - comp);
        const float t = f(sum + y);
        comp = f(f(t - sum) - y);
        sum = t;
    }
    if (sum != 0.0f) {
        for (float& v : p) v = f(v / sum);
    } else {
        const auto u = static_cast<float>(1.0 / static_cast<double>(static_cast<float>(p.size())));
        for (float& v : p) v = u;
    }
}
}  // namespace detail

// easel_fnorm(p, true) on a fixed-size vector: the same loop, inlined with
// its length known.
template <size_t N>
inline void easel_fnorm_fixed(std::array<float, N>& p) noexcept {
    detail::easel_fnorm_with(std::span<float, N>(p), easel_flush);
}

// esl_rnd_FChoose: one draw, then the first index whose running double sum
// over the double total exceeds it. InternalError when no index does (a
// NaN in p), where Easel aborts.
int easel_fchoose(EaselRandom& rng, std::span<const float> p);

// easel_fchoose's InternalError.
[[noreturn]] void easel_fchoose_failed();

// easel_fchoose on a fixed-size vector: the same draw, sums and tests, all
// made, and the first index that passes picked without a branch (the draw
// is random, so the plain loop's exit is often mispredicted).
template <size_t N>
int easel_fchoose_fixed(EaselRandom& rng, const std::array<float, N>& p) {
    const double roll = rng.uniform();
    double norm = 0.0;
    for (float v : p) norm += static_cast<double>(v);
    double sum = 0.0;
    int pick = static_cast<int>(N);
    for (size_t i = 0; i < N; ++i) {
        sum += static_cast<double>(p[i]);
        const bool first = pick == static_cast<int>(N) && roll < sum / norm;
        pick = first ? static_cast<int>(i) : pick;
    }
    if (pick == static_cast<int>(N)) easel_fchoose_failed();
    return pick;
}

}  // namespace warpdp
