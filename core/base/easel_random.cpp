#include "core/base/easel_random.hpp"

#include <ctime>

#include <unistd.h>

#include "core/base/errors.hpp"

namespace warpdp {

namespace {

constexpr uint32_t kLcgMul = 69069u;

uint32_t arbitrary_seed() {
    const auto t = static_cast<uint32_t>(std::time(nullptr));
    const auto pid = static_cast<uint32_t>(::getpid());
    const auto c = static_cast<uint32_t>(std::clock());
    const uint32_t s = easel_mix3(t, pid, c);
    return s == 0 ? 42u : s;
}

}  // namespace

uint32_t easel_mix3(uint32_t a, uint32_t b, uint32_t c) noexcept {
    // Three rounds of subtract-subtract-xorshift on each word in turn.
    a -= b; a -= c; a ^= c >> 13;
    b -= c; b -= a; b ^= a << 8;
    c -= a; c -= b; c ^= b >> 13;
    a -= b; a -= c; a ^= c >> 12;
    b -= c; b -= a; b ^= a << 16;
    c -= a; c -= b; c ^= b >> 5;
    a -= b; a -= c; a ^= c >> 3;
    b -= c; b -= a; b ^= a << 10;
    c -= a; c -= b; c ^= b >> 15;
    return c;
}

EaselRandom::EaselRandom(Kind kind, uint32_t seed) : kind_(kind) { reseed(seed); }

void EaselRandom::reseed(uint32_t seed) {
    if (seed == 0) seed = arbitrary_seed();
    seed_ = seed;
    if (kind_ == Kind::fast) {
        x_ = easel_mix3(seed, 87654321u, 12345678u);
        if (x_ == 0) x_ = 42u;
        return;
    }
    // Easel keeps MT19937's 1998 seeding (a 69069 LCG down the table), not
    // the 2002 init_genrand, then twists at once.
    mt_[0] = seed;
    for (int z = 1; z < kMtWords; ++z) mt_[static_cast<size_t>(z)] = kLcgMul * mt_[static_cast<size_t>(z) - 1];
    twist();
}

EaselRandom EaselRandom::mersenne_from_table(const std::array<uint32_t, kMtWords>& table) {
    EaselRandom r;
    r.kind_ = Kind::mersenne;
    r.seed_ = table[0];
    r.mt_ = table;
    r.twist();
    return r;
}

void EaselRandom::twist() noexcept {
    constexpr int N = kMtWords, Mo = 397;
    auto mixed = [this](int z, int next) {
        const uint32_t y = (mt_[static_cast<size_t>(z)] & 0x80000000u) | (mt_[static_cast<size_t>(next)] & 0x7fffffffu);
        return (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    };
    for (int z = 0; z < N; ++z)
        mt_[static_cast<size_t>(z)] = mt_[static_cast<size_t>((z + Mo) % N)] ^ mixed(z, (z + 1) % N);
    mti_ = 0;
}

uint32_t EaselRandom::next_u32() noexcept {
    if (kind_ == Kind::fast) {
        x_ = x_ * kLcgMul + 1u;
        return x_;
    }
    if (mti_ >= kMtWords) twist();
    uint32_t x = mt_[static_cast<size_t>(mti_++)];
    x ^= x >> 11;
    x ^= (x << 7) & 0x9d2c5680u;
    x ^= (x << 15) & 0xefc60000u;
    x ^= x >> 18;
    return x;
}


void easel_fnorm(std::span<float> p, bool flush_to_zero) noexcept {
    if (flush_to_zero) detail::easel_fnorm_with(p, easel_flush);
    else detail::easel_fnorm_with(p, [](float v) { return v; });
}

int easel_fchoose(EaselRandom& rng, std::span<const float> p) {
    const double roll = rng.uniform();
    double norm = 0.0;
    for (float v : p) norm += static_cast<double>(v);
    double sum = 0.0;
    for (size_t i = 0; i < p.size(); ++i) {
        sum += static_cast<double>(p[i]);
        if (roll < sum / norm) return static_cast<int>(i);
    }
    easel_fchoose_failed();
}

void easel_fchoose_failed() {
    throw InternalError("easel_fchoose: no choice over a vector that does not sum to a positive number");
}

}  // namespace warpdp
