// Every variant of the bias filter (bias_cpu_variants, through
// BiasFilter::filter_scores) gives the scalar loop's scores bit for bit: the
// lanes' logarithm equals (float)std::log((double)x) for every float the
// filter meets and a sample of all others, and whole scores agree on random
// and real models with swept lengths, degenerate and non-residue codes and
// low-complexity text. (The scalar loop itself is held
// to hmmsearch's bias decisions in test_hmm_oracle.cpp.)
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/hmmer/bias/bias_filter.hpp"
#include "core/hmmer/bias/bias_lanes_kernels.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "random_hmm.hpp"
#include "simd_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

float from_bits(uint32_t b) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}
uint32_t to_bits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

std::string describe(float x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g (0x%08x)", static_cast<double>(x), to_bits(x));
    return buf;
}

#if defined(__x86_64__)
// Bit patterns [lo, hi) with the given stride: how many lanes' logs differ
// from the scalar expression's (NaN results compare as equal when both are NaN).
uint64_t log_mismatches(uint32_t lo, uint32_t hi, uint32_t stride) {
    constexpr size_t kBatch = 1 << 16;
    std::vector<float> in, got(kBatch);
    in.reserve(kBatch);
    uint64_t bad = 0;
    auto flush = [&] {
        bias_lanes::log_avx2(in.data(), in.size(), got.data());
        for (size_t i = 0; i < in.size(); ++i) {
            const float want = static_cast<float>(std::log(static_cast<double>(in[i])));
            if (to_bits(want) != to_bits(got[i]) && !(std::isnan(want) && std::isnan(got[i]))) {
                if (bad < 5) MESSAGE(describe(in[i]) << ": lanes " << describe(got[i]) << ", std::log " << describe(want));
                ++bad;
            }
        }
        in.clear();
    };
    for (uint64_t b = lo; b < hi; b += stride) {
        in.push_back(from_bits(static_cast<uint32_t>(b)));
        if (in.size() == kBatch) flush();
    }
    flush();
    return bad;
}
#endif

// A model with a random composition; `skew` piles most of it on one residue
// (large composition odds, the scale factors' far end).
Hmm model_with_compo(int M, bool skew) {
    Hmm h = random_hmm(M, rng());
    float sum = 0;
    for (auto& c : h.compo) sum += c = static_cast<float>(uniform(1, 1000));
    if (skew) sum += h.compo[static_cast<size_t>(uniform(0, 19))] += 50.0f * sum;
    for (auto& c : h.compo) c /= sum;
    return h;
}

// Random digitised targets: mostly residues, some degenerate and non-residue
// codes, some runs of one residue; lengths swept from 1 up.
std::vector<std::vector<uint8_t>> random_targets(size_t n, int max_len) {
    const int Kp = Alphabet::amino().Kp();
    std::vector<std::vector<uint8_t>> out(n);
    for (auto& s : out) {
        const int L = uniform(0, 9) == 0 ? uniform(1, 4) : uniform(1, max_len);
        const bool run = uniform(0, 4) == 0;
        const auto one = static_cast<uint8_t>(uniform(0, 19));
        s.resize(static_cast<size_t>(L));
        for (auto& x : s) {
            const int r = uniform(0, 99);
            x = run && r < 90 ? one : static_cast<uint8_t>(r < 95 ? uniform(0, 19) : uniform(20, Kp - 1));
        }
    }
    return out;
}

// Every variant this CPU runs, and the one filter_scores chooses, against
// filter_score target by target.
void check_scores_equal(const BiasFilter& bf, const std::vector<std::vector<uint8_t>>& targets) {
    std::vector<std::span<const uint8_t>> spans(targets.begin(), targets.end());
    std::vector<std::pair<std::string, std::vector<float>>> runs;
    runs.emplace_back("chosen", std::vector<float>(targets.size()));
    bf.filter_scores(spans, runs.back().second);
    for (const BiasCpuVariant& v : runnable_variants(bias_cpu_variants())) {
        runs.emplace_back(v.name, std::vector<float>(targets.size()));
        bf.filter_scores(spans, runs.back().second, v);
    }
    size_t bad = 0;
    for (size_t i = 0; i < targets.size(); ++i) {
        const float one = bf.filter_score(targets[i]);
        for (const auto& [name, got] : runs) {
            if (to_bits(one) != to_bits(got[i])) {
                if (bad < 5) MESSAGE("target " << i << " (L = " << targets[i].size() << "): filter_score "
                                               << describe(one) << ", " << name << " " << describe(got[i]));
                ++bad;
            }
        }
    }
    CHECK(bad == 0);
}

}  // namespace

TEST_CASE("the lanes' log equals (float)std::log((double)x)") {
#if !defined(__x86_64__)
    MESSAGE("not x86-64: no lanes; nothing to compare");
#else
    if (!cpu_supports(CpuIsa::avx2)) {
        MESSAGE("no AVX2 on this CPU: filter_scores runs the scalar loop; nothing to compare");
        return;
    }
    SUBCASE("every float from 2^-14 to 2^8 (the row scale factors of any model)") {
        CHECK(log_mismatches(to_bits(0x1p-14f), to_bits(0x1p8f), 1) == 0);
    }
    SUBCASE("a sample of every other bit pattern, from a random start: zeros, subnormals, infinities, NaNs, negatives") {
        const auto stride = static_cast<uint32_t>(uniform(3000, 4000));
        CHECK(log_mismatches(static_cast<uint32_t>(uniform(0, 2999)), std::numeric_limits<uint32_t>::max(), stride) ==
              0);
        const float specials[] = {0.0f, -0.0f, 1.0f, 2.0f, 0.5f, std::numeric_limits<float>::denorm_min(),
                                  std::numeric_limits<float>::min(), std::numeric_limits<float>::max(),
                                  std::numeric_limits<float>::infinity(), -1.0f,
                                  std::numeric_limits<float>::quiet_NaN(), std::nextafter(1.0f, 0.0f),
                                  std::nextafter(1.0f, 2.0f)};
        for (float x : specials) CHECK(log_mismatches(to_bits(x), to_bits(x) + 1, 1) == 0);
    }
#endif
}

TEST_CASE("filter_scores equals filter_score for every target") {
    SUBCASE("random models and compositions, swept lengths, any number of targets") {
        for (int round = 0; round < 12; ++round) {
            const int M = uniform(1, 1200);
            const bool skew = round % 3 == 0;
            CAPTURE(M);
            CAPTURE(skew);
            const BiasFilter bf(model_with_compo(M, skew));
            check_scores_equal(bf, random_targets(static_cast<size_t>(uniform(0, 300)), round % 2 ? 3000 : 400));
        }
    }
    SUBCASE("a model without a composition (zero odds in the composition state)") {
        Hmm h = random_hmm(uniform(1, 300), rng());
        const BiasFilter bf(h);
        check_scores_equal(bf, random_targets(200, 800));
    }
    SUBCASE("the tutorial's real models, with long and one-residue targets") {
        for (const char* name : {"fn3.hmm", "Pkinase.hmm", "globins4.hmm"}) {
            const std::string path = std::string("/usr/share/doc/hmmer/examples/tutorial/") + name;
            if (!std::ifstream(path)) {
                MESSAGE("skipped " << path << " (hmmer-examples not installed)");
                continue;
            }
            CAPTURE(name);
            const BiasFilter bf(read_all_hmms(path).at(0));
            auto targets = random_targets(100, 2000);
            targets.push_back(std::vector<uint8_t>(100000, 7));  // hmmsearch's longest
            targets.push_back({3});
            check_scores_equal(bf, targets);
        }
    }
}

TEST_CASE("filter_scores refuses an empty target and a wrong-sized output") {
    const BiasFilter bf(model_with_compo(50, false));
    const std::vector<uint8_t> some(10, 1), none;
    std::vector<std::span<const uint8_t>> spans = {some, none};
    std::vector<float> out(2);
    CHECK_THROWS(bf.filter_scores(spans, out));
    std::vector<float> short_out(1);
    spans.pop_back();
    spans.push_back(some);
    CHECK_THROWS(bf.filter_scores(spans, short_out));
}
