// The bias filter on one thread: every entry of its variant table
// (bias_cpu_variants, through filter_scores), the serial loop (what the MSV
// decisions paid per MSV passer until the lanes) and the AVX2 lanes, on
// random protein targets of typical lengths and the tutorial's Pkinase
// model (or a random one). Prints ns per residue and the ratio to the
// serial loop; best of REPEAT runs. With --all-floats it instead compares
// the lanes' logarithm with (float)std::log((double)x) for all 2^32 float
// bit patterns on every core and prints how many differ (the unit test covers
// the floats the filter meets and a sample of the rest).
//   bench_bias [targets (default 20000)] [repeat (3)] [model.hmm]
//   bench_bias --all-floats
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_support.hpp"
#include "core/hmmer/bias/bias_filter.hpp"
#include "core/hmmer/bias/bias_lanes_kernels.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "tests/support/random_hmm.hpp"
#include "tests/support/simd_test_support.hpp"

using namespace warpdp;

namespace {

#if defined(__x86_64__)
int all_floats() {
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::atomic<uint64_t> next{0}, differ{0};
    constexpr uint64_t kBlock = 1 << 20;
    auto work = [&] {
        std::vector<float> in(kBlock), out(kBlock);
        for (uint64_t b; (b = next.fetch_add(kBlock)) < (uint64_t{1} << 32);) {
            for (uint64_t i = 0; i < kBlock; ++i) {
                const auto bits = static_cast<uint32_t>(b + i);
                std::memcpy(&in[i], &bits, sizeof bits);
            }
            bias_lanes::log_avx2(in.data(), kBlock, out.data());
            for (uint64_t i = 0; i < kBlock; ++i) {
                const float want = static_cast<float>(std::log(static_cast<double>(in[i])));
                if (std::memcmp(&want, &out[i], sizeof want) != 0 && !(std::isnan(want) && std::isnan(out[i]))) {
                    if (differ.fetch_add(1) < 10)
                        std::printf("differs: x = %.9g: lanes %.9g, std::log %.9g\n", static_cast<double>(in[i]),
                                    static_cast<double>(out[i]), static_cast<double>(want));
                }
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work);
    for (auto& t : pool) t.join();
    std::printf("all 2^32 float bit patterns: %llu logs differ from (float)std::log((double)x)\n",
                static_cast<unsigned long long>(differ.load()));
    return differ.load() == 0 ? 0 : 1;
}
#endif

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "--all-floats") {
#if defined(__x86_64__)
        if (cpu_supports(CpuIsa::avx2)) return all_floats();
#endif
        std::printf("no AVX2 on this CPU: the lanes are not used\n");
        return 0;
    }
    const size_t n = argc > 1 ? static_cast<size_t>(std::atol(argv[1])) : 20000;
    const int repeat = argc > 2 ? std::atoi(argv[2]) : 3;
    std::mt19937_64 g(12345);
    Hmm hmm = argc > 3 ? read_all_hmms(argv[3]).at(0) : test::random_hmm(260, g);
    if (argc <= 3) {  // the random model has no composition: give it one
        for (auto& c : hmm.compo) c = std::uniform_real_distribution<float>(0.01f, 1.0f)(g);
        float sum = 0;
        for (float c : hmm.compo) sum += c;
        for (auto& c : hmm.compo) c /= sum;
    }
    const BiasFilter bf(hmm);
    const SeqBatch db = bench::random_protein(n * 350, 100, 600, g);
    std::vector<std::span<const uint8_t>> seqs;
    for (size_t i = 0; i < db.size(); ++i) seqs.push_back(db.seq(i));
    const double residues = static_cast<double>(db.total_residues());
    std::printf("# bias filter, one thread: %zu targets, %.0f residues, model %s (M = %d), best of %d\n", seqs.size(),
                residues, hmm.name.c_str(), hmm.M, repeat);
    std::printf("%-22s %10s %12s\n", "variant", "seconds", "ns/residue");
    // Each variant against filter_score, target by target; the serial entry
    // (last in the table) is the yardstick of the ratios.
    std::vector<float> want(seqs.size()), got(seqs.size());
    for (size_t i = 0; i < seqs.size(); ++i) want[i] = bf.filter_score(seqs[i]);
    const auto variants = test::runnable_variants(bias_cpu_variants());
    std::vector<double> secs;
    bool same = true;
    for (const BiasCpuVariant& v : variants) {
        secs.push_back(bench::best_seconds(repeat, [&] { bf.filter_scores(seqs, got, v); }));
        const bool identical = std::memcmp(want.data(), got.data(), want.size() * sizeof(float)) == 0;
        same = same && identical;
        std::printf("%-22s %10.4f %12.2f  (scores %s)\n", v.name, secs.back(), secs.back() / residues * 1e9,
                    identical ? "identical" : "DIFFER");
    }
    for (size_t k = 0; k + 1 < variants.size(); ++k)
        std::printf("# %s: %.1fx the serial loop\n", variants[k].name, secs.back() / secs[k]);
    return same ? 0 : 1;
}
