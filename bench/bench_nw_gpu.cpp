// Benchmark of the CUDA gpu-nw-dist engine: N random 454-like reads (copies of
// one template with homopolymer indels, substitutions and a few N), all pairs
// i > j, NDist and SeqDist. Reports GCUPS = sum of la*lb / seconds, by kernel
// time (CUDA events) and by wall time of compute(), for the default kernel
// and (with "variants") every instance; the CPU engine runs on the first
// `cpu_reads` reads for the ratio, and the GPU results on that subset must
// equal the CPU engine's bit for bit.
//   bench_nw_gpu [reads=2000] [length=400] [devices=all|0|0,1] [cpu_reads=150] [variants]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_support.hpp"
#include "core/nw/nw_cpu.hpp"
#include "kernels/common/gpus.hpp"

#ifdef WARPDP_HAVE_CUDA
#include "kernels/nw/nw_cuda.hpp"

using namespace warpdp;

namespace {

std::mt19937_64 gen(20260311);
std::vector<NwPair> all_pairs(size_t n) {
    std::vector<NwPair> p;
    p.reserve(n * (n - 1) / 2);
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = 0; j < i; ++j) p.push_back({i, j});
    return p;
}

uint64_t cells_of(const NwReads& r, const std::vector<NwPair>& p) {
    uint64_t c = 0;
    for (const auto& q : p) c += nw_cells(r.length(q.a), r.length(q.b));
    return c;
}


}  // namespace

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 2000;
    const int length = argc > 2 ? std::atoi(argv[2]) : 400;
    const std::string devarg = argc > 3 ? argv[3] : "all";
    const int cpu_reads = std::min(n, argc > 4 ? std::atoi(argv[4]) : 150);
    const bool all_variants = argc > 5 && std::string(argv[5]) == "variants";
    const std::vector<int> devices = bench::bench_devices(devarg);
    if (devices.empty()) {
        std::printf("no CUDA GPU visible\n");
        return 77;
    }
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::printf("reads: %d x ~%d nt (454-like), all pairs i > j; %zu device(s): %s; CPU engine: %u threads on %d reads\n", n,
                length, devices.size(), list_gpus().front().name.c_str(), threads, cpu_reads);
    std::printf("%-8s %-12s %10s %14s %10s %10s %10s %10s %8s %8s\n", "metric", "variant", "pairs", "cells", "kernel_ms",
                "GCUPS_krn", "GCUPS_wall", "GCUPS_cpu", "ratio", "mismatch");
    int status = 0;
    for (NwMetric metric : {NwMetric::ndist, NwMetric::seqdist}) {
        const NwReads reads = bench::amplicon_reads(gen, n, length, metric == NwMetric::ndist);
        const NwCodedReads coded = code_nw_reads(reads, metric, tran_dat());
        const auto pairs = all_pairs(reads.size());
        const uint64_t cells = cells_of(reads, pairs);
        // CPU engine on the subset, for the ratio and the check.
        const auto sub = all_pairs(static_cast<size_t>(cpu_reads));
        std::vector<double> cpu_out(sub.size()), gpu_sub(sub.size());
        auto cpu = make_nw_cpu_engine(threads);
        cpu->load(reads, coded);
        const double cpu_s = bench::seconds_of([&] { cpu->compute(sub, cpu_out); });
        const double cpu_gcups = static_cast<double>(cells_of(reads, sub)) / cpu_s / 1e9;

        auto eng = make_nw_cuda_engine_ex(devices);
        eng->load(reads, coded);
        eng->compute(sub, gpu_sub);
        int bad = 0;
        for (size_t k = 0; k < sub.size(); ++k)
            if (std::memcmp(&gpu_sub[k], &cpu_out[k], sizeof(double)) != 0 && ++bad <= 3)
                std::printf("MISMATCH %s pair %u,%u: gpu %.17g cpu %.17g\n", nw_metric_name(metric), sub[k].a, sub[k].b,
                            gpu_sub[k], cpu_out[k]);
        if (bad) status = 1;
        std::vector<std::string> names = {""};
        if (all_variants)
            for (const auto& v : nw_cuda_variants())
                if (v.rfind(nw_metric_name(metric), 0) == 0) names.push_back(v);
        std::vector<double> out(pairs.size());
        for (const auto& name : names) {
            eng->force_variant(name);
            eng->compute(sub, gpu_sub);  // warm-up
            const double wall = bench::seconds_of([&] { eng->compute(pairs, out); });
            const auto st = eng->last_stats();
            const double krn = static_cast<double>(st.gpu_cells) / (st.kernel_ms * 1e-3) / 1e9;
            const double wl = static_cast<double>(cells) / wall / 1e9;
            std::printf("%-8s %-12s %10zu %14llu %10.1f %10.1f %10.1f %10.2f %8.0f %8d\n", nw_metric_name(metric),
                        (name.empty() ? st.variant + "*" : name).c_str(), pairs.size(),
                        static_cast<unsigned long long>(cells), st.kernel_ms, krn, wl, cpu_gcups, wl / cpu_gcups, bad);
        }
    }
    std::printf("(* = default kernel; GCUPS_krn: GPU cells / summed kernel time of the slowest device; GCUPS_wall: all "
                "cells / compute() wall time)\n");
    return status;
}

#else
int main() {
    std::printf("bench_nw_gpu: built without CUDA support\n");
    return 77;
}
#endif
