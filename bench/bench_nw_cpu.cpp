// The gpu-nw-dist CPU engine on random 454-like reads (copies of one
// template with homopolymer indels, substitutions and, for NDist, a few N),
// all pairs i > j, NDist and SeqDist: every entry of the variant table
// (nw_cpu_variants) forced by name on one thread (the base one, many times
// slower, on the first eighth of the pairs), then the engine's own choice on
// all threads. Reports GCUPS (cells = sum over pairs of la*lb); every run's
// doubles must equal the first's bit for bit (checked). Best of REPEATS
// runs, as the machine is shared.
//   bench_nw_cpu [reads=300] [length=400] [repeats=3]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_support.hpp"
#include "core/nw/nw_cpu.hpp"
#include "tests/support/simd_test_support.hpp"

using namespace warpdp;

namespace {

std::mt19937_64 gen(20260311);
}  // namespace

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 300;
    const int length = argc > 2 ? std::atoi(argv[2]) : 400;
    const int repeats = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const auto variants = test::runnable_variants(nw_cpu_variants());
    std::printf("# %d reads of ~%d nt, all pairs i > j; best of %d\n", n, length, repeats);
    std::printf("%-8s %-24s %8s %9s %8s\n", "metric", "engine", "pairs", "seconds", "GCUPS");
    int bad = 0;
    for (NwMetric metric : {NwMetric::ndist, NwMetric::seqdist}) {
        const NwReads reads = bench::amplicon_reads(gen, n, length, metric == NwMetric::ndist);
        const NwCodedReads coded = code_nw_reads(reads, metric, tran_dat());
        std::vector<NwPair> pairs;
        for (uint32_t i = 0; i < reads.size(); ++i)
            for (uint32_t j = 0; j < i; ++j) pairs.push_back({i, j});
        const std::span<const NwPair> all(pairs), head = all.first(pairs.size() / 8);
        std::vector<double> first;
        auto run = [&](NwEngine& e, const std::string& label, std::span<const NwPair> ps) {
            uint64_t cells = 0;
            for (const NwPair& p : ps) cells += nw_cells(reads.length(p.a), reads.length(p.b));
            std::vector<double> out(ps.size());
            e.load(reads, coded);
            const double s = bench::best_seconds(repeats, [&] { e.compute(ps, out); });
            std::printf("%-8s %-24s %8zu %9.3f %8.3f\n", nw_metric_name(metric), label.c_str(), ps.size(), s,
                        static_cast<double>(cells) / s / 1e9);
            // (ps is a prefix of the pairs, so the first run's prefix is comparable)
            if (first.empty()) first = out;
            else if (std::memcmp(first.data(), out.data(), std::min(first.size(), out.size()) * sizeof(double)) != 0) {
                std::printf("MISMATCH: %s differs from the first run\n", label.c_str());
                ++bad;
            }
        };
        for (const NwCpuVariant& v : variants)
            run(*make_nw_cpu_engine(1, v), std::string(v.name) + " x1", v.isa == CpuIsa::base ? head : all);
        auto chosen = make_nw_cpu_engine(threads);
        run(*chosen, chosen->name(), all);
    }
    return bad == 0 ? 0 : 1;
}
