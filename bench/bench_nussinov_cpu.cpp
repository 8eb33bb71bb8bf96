// The gpu-nussinov CPU engine (docs/nussinov.md §6) on random RNA: long mode
// (one sequence, threads over the tiles of each anti-diagonal) at n = 2,000
// and 4,000, or the lengths given, and batch mode (many short sequences,
// one per thread). Every entry of the variant table runs by name on all
// threads (the base one only at the shorter lengths, and alone it is many
// times slower); each run's scores must equal the first's (checked).
// Reports seconds and T steps/s, steps = sum over i < j of (j - i) ~ n^3/6.
// Best of REPEATS runs, as the machine is shared.
//   bench_nussinov_cpu [lengths=2000,4000] [repeats=2] [batch=2000x200]
//   bench_nussinov_cpu 16000 1      (the n = 16,000 figure)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_support.hpp"
#include "core/nussinov/nussinov_cpu.hpp"
#include "tests/support/simd_test_support.hpp"

using namespace warpdp;

namespace {

std::mt19937_64 gen(20260424);

std::vector<uint8_t> random_rna(uint64_t n) {
    std::vector<uint8_t> s(n);
    for (auto& c : s) c = static_cast<uint8_t>(gen() % 4);
    return s;
}

// sum over 0 <= i < j < n of (j - i) = (n^3 - n) / 6
double steps(uint64_t n) { return (static_cast<double>(n) * n * n - static_cast<double>(n)) / 6; }

}  // namespace

int main(int argc, char** argv) {
    const std::vector<uint64_t> lengths = bench::number_list(argc > 1 ? argv[1] : "2000,4000");
    const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 2;
    uint64_t batch_n = 2000, batch_len = 200;
    if (argc > 3) std::sscanf(argv[3], "%lux%lu", &batch_n, &batch_len);
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const auto variants = test::runnable_variants(nussinov_cpu_variants());
    const NussinovParams p;  // unit weights, min_loop 1
    std::printf("# random RNA, unit weights, min_loop 1, %u threads, best of %d\n", threads, repeats);
    std::printf("%-10s %-22s %-12s %10s %12s\n", "mode", "variant", "size", "seconds", "T steps/s");
    int bad = 0;
    auto run = [&](const char* mode, const NussinovCpuVariant& v, const std::string& size,
                   const std::vector<std::vector<uint8_t>>& seqs, bool with_structure, std::vector<int64_t>& first) {
        auto engine = make_nussinov_cpu_engine(threads, v);
        std::vector<std::span<const uint8_t>> spans(seqs.begin(), seqs.end());
        std::vector<NussinovFold> out(seqs.size());
        double total = 0;
        for (const auto& s : seqs) total += steps(s.size());
        const double sec = bench::best_seconds(repeats, [&] { engine->fold(spans, p, with_structure, out); });
        std::printf("%-10s %-22s %-12s %10.3f %12.4f\n", mode, v.name, size.c_str(), sec, total / sec / 1e12);
        std::fflush(stdout);
        std::vector<int64_t> scores;
        for (const auto& f : out) scores.push_back(f.score);
        if (first.empty()) first = scores;
        else if (first != scores) {
            std::printf("MISMATCH: %s differs from the first run\n", v.name);
            ++bad;
        }
    };
    for (uint64_t n : lengths) {
        const std::vector<std::vector<uint8_t>> seqs{random_rna(n)};
        std::vector<int64_t> first;
        for (const auto& v : variants) {
            if (v.isa == CpuIsa::base && variants.size() > 1 && n > 4000) continue;
            run("long", v, std::to_string(n), seqs, true, first);
        }
    }
    std::vector<std::vector<uint8_t>> batch;
    for (uint64_t k = 0; k < batch_n; ++k) batch.push_back(random_rna(batch_len));
    std::vector<int64_t> first;
    for (const auto& v : variants)
        run("batch", v, std::to_string(batch_n) + "x" + std::to_string(batch_len), batch, true, first);
    return bad ? 1 : 0;
}
