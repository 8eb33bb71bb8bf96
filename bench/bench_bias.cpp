// The bias filter on one thread: the scalar loop (BiasFilter::filter_score,
// what the MSV decisions paid per MSV passer until the lanes) against the
// AVX2 lanes (filter_scores), on random protein targets of typical lengths
// and the tutorial's Pkinase model (or a random one). Prints ns per residue
// and the ratio; best of REPEAT runs. With --all-floats it instead compares
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
#include "core/hmmer/bias/bias_lanes.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "tests/support/random_hmm.hpp"

using namespace warpdp;

namespace {

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

}  // namespace

int main(int argc, char** argv) {
    if (!BiasFilter::lanes_available()) {
        std::printf("no AVX2 on this CPU: the lanes are not used\n");
        return 0;
    }
    if (argc > 1 && std::string(argv[1]) == "--all-floats") return all_floats();
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
    std::vector<float> a(seqs.size()), b(seqs.size());
    const double residues = static_cast<double>(db.total_residues());
    const double t_loop = bench::best_seconds(repeat, [&] { bf.filter_scores(seqs, a, false); });
    const double t_lanes = bench::best_seconds(repeat, [&] { bf.filter_scores(seqs, b, true); });
    const bool same = std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
    std::printf("# bias filter, one thread: %zu targets, %.0f residues, model %s (M = %d), best of %d\n", seqs.size(),
                residues, hmm.name.c_str(), hmm.M, repeat);
    std::printf("%-8s %10s %12s\n", "variant", "seconds", "ns/residue");
    std::printf("%-8s %10.4f %12.2f\n", "loop", t_loop, t_loop / residues * 1e9);
    std::printf("%-8s %10.4f %12.2f  (%.1fx the loop; scores %s)\n", "lanes", t_lanes, t_lanes / residues * 1e9,
                t_loop / t_lanes, same ? "identical" : "DIFFER");
    return same ? 0 : 1;
}
