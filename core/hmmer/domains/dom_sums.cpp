#include "core/hmmer/domains/dom_sums.hpp"

#include <array>
#include <cmath>
#include <limits>

namespace warpdp {

float easel_fsum(std::span<const float> v) noexcept {
    float sum = 0.0f, c = 0.0f;
    for (const float x : v) {
        const float y = x - c;
        const float t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    return sum;
}

namespace {

constexpr int kLogsumEntries = 16000;  // d = 0 .. 16 nats in steps of 1/1000
constexpr float kLogsumScale = 1000.0f;

const std::array<float, kLogsumEntries>& logsum_table() {
    static const auto table = [] {
        std::array<float, kLogsumEntries> t{};
        for (int i = 0; i < kLogsumEntries; ++i)
            t[static_cast<size_t>(i)] = static_cast<float>(std::log(1.0 + std::exp(-static_cast<double>(i) / 1000.0)));
        return t;
    }();
    return table;
}

}  // namespace

float hmmer_flogsum(float a, float b) noexcept {
    const float hi = a > b ? a : b;
    const float lo = a > b ? b : a;
    if (lo == -std::numeric_limits<float>::infinity() || hi - lo >= 15.7f) return hi;
    return hi + logsum_table()[static_cast<size_t>(static_cast<int>((hi - lo) * kLogsumScale))];
}

}  // namespace warpdp
