// Forward-filter throughput: the CPU engine (all threads, and one thread:
// the per-core rate to set beside hmmsearch's own ForwardParser, which runs
// the same striped SSE arithmetic) and the CUDA engine when a GPU is
// visible, on the same random protein for random models of M = 86, 260 and
// 1142. Survivor-sized batches, as the pipeline sends them. Results must be
// bit-identical between engines (checked). Prints cells (M x residues),
// GCUPS and the GPU/CPU ratio; best of REPEAT runs.
// Usage: bench_fwd [Mresidues=4] [repeat=3] [devices=all] [models=86,260,1142]
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "core/hmmer/fwd/fwd_cpu.hpp"
#include "core/hmmer/profile.hpp"
#include "kernels/fwd/fwd_cuda.hpp"
#include "tests/support/random_hmm.hpp"

using namespace warpdp;
using warpdp::bench::best_seconds;

int main(int argc, char** argv) {
    const double mres = argc > 1 ? std::atof(argv[1]) : 4.0;
    const int repeat = argc > 2 ? std::atoi(argv[2]) : 3;
    const std::vector<int> devices = bench::bench_devices(argc > 3 ? argv[3] : "all");
    std::vector<int> models;
    {
        std::stringstream ss(argc > 4 ? argv[4] : "86,260,1142");
        for (std::string t; std::getline(ss, t, ',');) models.push_back(std::stoi(t));
    }
    std::mt19937_64 g(2024);
    const SeqBatch db = bench::random_protein(static_cast<uint64_t>(mres * 1e6), 100, 600, g);
    std::printf("# %zu targets, %llu residues, best of %d; GPUs: %zu\n", db.size(),
                static_cast<unsigned long long>(db.total_residues()), repeat, devices.size());
    std::printf("%6s %-22s %14s %9s %8s %8s\n", "M", "engine", "cells", "seconds", "GCUPS", "vs cpu");
    int bad = 0;
    for (int M : models) {
        const FwdProfile fp = build_fwd_profile(build_profile(test::random_hmm(M, g)));
        const double cells = static_cast<double>(M) * static_cast<double>(db.total_residues());
        std::vector<float> want(db.size()), got(db.size());
        auto cpu = make_fwd_cpu_engine(0);
        const double t_cpu = best_seconds(repeat, [&] { cpu->score(fp, db, want); });
        std::printf("%6d %-22s %14.4g %9.4f %8.2f %8s\n", M, (cpu->name() + " all threads").c_str(), cells, t_cpu,
                    cells / t_cpu / 1e9, "1.0x");
        // one thread on a tenth of the targets (the per-core rate)
        const SeqBatch head = bench::leading_records(db, db.total_residues() / 10);
        std::vector<float> one(head.size());
        auto cpu1 = make_fwd_cpu_engine(1);
        const double t1 = best_seconds(1, [&] { cpu1->score(fp, head, one); });
        const double cells1 = static_cast<double>(M) * static_cast<double>(head.total_residues());
        std::printf("%6d %-22s %14.4g %9.4f %8.2f %8s\n", M, (cpu1->name() + " 1 thread").c_str(), cells1, t1,
                    cells1 / t1 / 1e9, "");
        if (devices.empty()) continue;
        auto gpu = make_fwd_cuda_engine(devices);
        gpu->score(fp, db, got);  // warm-up (allocations)
        const double t_gpu = best_seconds(repeat, [&] { gpu->score(fp, db, got); });
        long mism = 0;
        for (size_t i = 0; i < db.size(); ++i)
            mism += std::bit_cast<uint32_t>(got[i]) != std::bit_cast<uint32_t>(want[i]) &&
                    !(std::isnan(got[i]) && std::isnan(want[i]));
        bad += mism > 0;
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%.1fx", t_cpu / t_gpu);
        std::printf("%6d %-22s %14.4g %9.4f %8.2f %8s%s\n", M, gpu->name().c_str(), cells, t_gpu, cells / t_gpu / 1e9,
                    ratio, mism ? "  MISMATCH" : "");
        if (mism) std::printf("MISMATCH: %ld of %zu targets differ from the CPU engine (M=%d)\n", mism, db.size(), M);
        // One long target alone: the latency of a call that waits on its
        // longest target (the pipeline's calls are a chunk's survivors).
        const SeqBatch lone = bench::random_protein(5000, 5000, 5000, g);
        std::vector<float> o1(lone.size()), o2(lone.size());
        const double t_one = best_seconds(repeat, [&] { gpu->score(fp, lone, o1); });
        const double t_one_cpu = best_seconds(repeat, [&] { cpu1->score(fp, lone, o2); });
        std::printf("%6d %-22s %14.4g %9.4f %8.2f %8s  (one 5,000-residue target: %.2f us a row; one CPU thread %.2f us)\n",
                    M, "cuda one target", static_cast<double>(M) * 5000, t_one, static_cast<double>(M) * 5000 / t_one / 1e9,
                    "", t_one / 5000 * 1e6, t_one_cpu / 5000 * 1e6);
    }
    return bad ? 1 : 0;
}
