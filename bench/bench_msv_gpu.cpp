// Benchmark of the CUDA MSV engine: random byte profiles (M = 86, 260, 1142 by
// default) against ~1e9 residues of random protein generated in memory
// (lognormal lengths, mean ~350). Reports kernel throughput as cells
// (M x residues) per second from CUDA events, median of several runs after a
// warm-up, and checks a sample of targets against the scalar reference: any
// mismatch makes it exit 1. The peer, timed in the same run: the optimized
// CPU engine on all cores over the database's first 1e8 residues (wall time
// of score(); its results must equal the GPU's), and the GPU's ratio to it.
// Usage: bench_msv_gpu [residues] [M,M,...] [reps] [device,device,...|all]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_support.hpp"
#include "core/hmmer/hmmer_units.hpp"
#include "core/hmmer/msv/msv_cpu.hpp"
#include "core/hmmer/msv/msv_reference.hpp"
#include "core/io/seq_batch.hpp"
#include "kernels/common/gpus.hpp"

#ifdef WARPDP_HAVE_CUDA
#include "kernels/msv/msv_cuda.hpp"

namespace {

using namespace warpdp;

MsvByteProfile random_profile(int M, std::mt19937_64& g) {
    auto u = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); };
    MsvByteProfile p;
    p.M = M;
    p.bias = static_cast<uint8_t>(u(14, 22));
    p.tbm = hmmer::unbiased_byte(std::log(2.0f / (static_cast<float>(M) * static_cast<float>(M + 1))));
    p.tec = 3;
    p.cost.assign(static_cast<size_t>(p.Kp) * static_cast<size_t>(M + 1), 255);
    for (int k = 1; k <= M; ++k) {
        const int pref = u(0, 19);
        for (int x = 0; x < p.Kp; ++x) {
            // Typical match scores: one residue per node scores +1..+5 bits, the others -4.7..+0.7 bits.
            int c = x == pref ? p.bias - u(3, 15) : p.bias + u(-2, 14);
            if (x == 20 || x == 27 || x == 28) c = 255;
            p.cost[static_cast<size_t>(x) * static_cast<size_t>(M + 1) + static_cast<size_t>(k)] =
                static_cast<uint8_t>(std::clamp(c, 0, 255));
        }
    }
    return p;
}

// ~`residues` of random protein in lognormal-length records, filled in parallel.
SeqBatch random_database(uint64_t residues, uint64_t seed) {
    SeqBatch b;
    std::mt19937_64 g(seed);
    std::lognormal_distribution<double> len(std::log(350.0) - 0.18, 0.6);  // mean ~350
    uint64_t total = 0;
    while (total < residues) {
        const uint64_t L = std::clamp<uint64_t>(static_cast<uint64_t>(len(g)), 1, 40000);
        total += L;
        b.offsets.push_back(total);
    }
    b.names.assign(b.offsets.size() - 1, std::string());
    b.descs.assign(b.offsets.size() - 1, std::string());
    b.residues.resize(total);
    const unsigned nt = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned w = 0; w < nt; ++w)
        pool.emplace_back([&, w] {
            uint64_t s = seed * 0x9E3779B97F4A7C15ull + w + 1;
            const uint64_t lo = total * w / nt, hi = total * (w + 1) / nt;
            for (uint64_t i = lo; i < hi; ++i) {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                b.residues[i] = static_cast<uint8_t>(((s >> 32) * 20) >> 32);
            }
        });
    for (auto& t : pool) t.join();
    return b;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const uint64_t residues = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000000ull;
    std::vector<int> Ms{86, 260, 1142};
    if (argc > 2) {
        Ms.clear();
        for (std::string s = argv[2]; !s.empty();) {
            const size_t c = s.find(',');
            Ms.push_back(std::stoi(s.substr(0, c)));
            s = c == std::string::npos ? "" : s.substr(c + 1);
        }
    }
    const int reps = argc > 3 ? std::atoi(argv[3]) : 5;
    const auto gpus = list_gpus();
    if (gpus.empty()) {
        std::printf("bench_msv_gpu: no CUDA GPU visible\n");
        return 77;
    }
    std::vector<int> devices;
    const std::string dev_arg = argc > 4 ? argv[4] : "all";
    for (std::string d = dev_arg; dev_arg != "all" && !d.empty();) {
        const size_t c = d.find(',');
        devices.push_back(std::stoi(d.substr(0, c)));
        d = c == std::string::npos ? "" : d.substr(c + 1);
    }
    for (const auto& g : gpus) {
        if (dev_arg == "all") devices.push_back(g.index);
        std::printf("# GPU %d: %s, %.1f GiB, cc %d.%d\n", g.index, g.name.c_str(),
                    static_cast<double>(g.memory_bytes) / (1 << 30), g.cc_major, g.cc_minor);
    }
    const uint64_t seed = std::random_device{}();
    std::printf("# seed = %llu\n", static_cast<unsigned long long>(seed));
    std::printf("# devices used: %zu\n", devices.size());
    auto t0 = std::chrono::steady_clock::now();
    const SeqBatch db = random_database(residues, seed);
    auto t1 = std::chrono::steady_clock::now();
    auto eng = make_msv_cuda_engine_ex(devices);
    eng->load_targets(db);
    auto t2 = std::chrono::steady_clock::now();
    std::printf("# database: %zu targets, %llu residues (generated in %.1f s, loaded in %.1f s); max chunk on GPU 0: %zu residues\n",
                db.size(), static_cast<unsigned long long>(db.total_residues()),
                std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t2 - t1).count(),
                msv_cuda_max_chunk_residues(devices.front()));

    std::mt19937_64 g(seed ^ 0x5bd1e995);
    std::vector<uint16_t> out(db.size());
    const SeqBatch head = bench::leading_records(db, 100000000);  // the CPU peer's share
    auto cpu = make_msv_cpu_engine(0);
    cpu->load_targets(head);
    std::vector<uint16_t> head_out(head.size());
    struct Row {
        int M;
        std::string variant;
        int tiles;
        double cells, kernel_ms, ssv_ms, wall_ms;
        uint64_t fallback;
        size_t mismatches;
        double cpu_gcups;
    };
    std::vector<Row> rows;
    int rc = 0;
    for (int M : Ms) {
        const MsvByteProfile prof = random_profile(M, g);
        eng->score(prof, out);  // warm-up (module load, attribute setting)
        std::vector<double> kms, sms, wms;
        for (int r = 0; r < reps; ++r) {
            const auto a = std::chrono::steady_clock::now();
            eng->score(prof, out);
            const auto z = std::chrono::steady_clock::now();
            kms.push_back(eng->last_stats().kernel_ms);
            sms.push_back(eng->last_stats().ssv_ms);
            wms.push_back(std::chrono::duration<double, std::milli>(z - a).count());
        }
        // Sample check against the reference (last run's results).
        size_t bad = 0;
        const size_t n_check = std::min<size_t>(db.size(), 300);
        for (size_t i = 0; i < n_check; ++i) {
            const size_t t = i == 0 ? 0 : std::uniform_int_distribution<size_t>(0, db.size() - 1)(g);
            const uint16_t ref = msv_reference(prof, db.seq(t));
            if (out[t] != ref && ++bad <= 5)
                std::printf("MISMATCH M=%d target %zu L=%llu: gpu %u reference %u\n", M, t,
                            static_cast<unsigned long long>(db.length(t)), out[t], ref);
        }
        const auto c0 = std::chrono::steady_clock::now();
        cpu->score(prof, head_out);
        const double cpu_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
        for (size_t t = 0; t < head.size(); ++t)
            if (head_out[t] != out[t] && ++bad <= 5)
                std::printf("MISMATCH M=%d target %zu: gpu %u, CPU engine %u\n", M, t, out[t], head_out[t]);
        if (bad) rc = 1;
        const auto st = eng->last_stats();
        rows.push_back({M, st.variant, st.tiles, static_cast<double>(M) * static_cast<double>(db.total_residues()),
                        median(kms), median(sms), median(wms), st.fallback_targets, bad,
                        static_cast<double>(M) * static_cast<double>(head.total_residues()) / cpu_s / 1e9});
    }
    std::printf("\n%-6s %-18s %5s %14s %10s %10s %10s %10s %9s %9s %8s %10s %6s\n", "M", "variant", "tiles", "cells",
                "kernel_ms", "ssv_ms", "wall_ms", "TCUPS", "TCUPS_ssv", "fallback", "mismatch", "GCUPS_cpu", "ratio");
    for (const auto& r : rows) {
        const double tcups = r.cells / (r.kernel_ms * 1e-3) / 1e12;
        std::printf("%-6d %-18s %5d %14.4e %10.2f %10.2f %10.2f %10.3f %9.3f %9llu %8zu %10.1f %6.0f\n", r.M,
                    r.variant.c_str(), r.tiles, r.cells, r.kernel_ms, r.ssv_ms, r.wall_ms, tcups,
                    r.cells / (r.ssv_ms * 1e-3) / 1e12, static_cast<unsigned long long>(r.fallback), r.mismatches,
                    r.cpu_gcups, tcups * 1e3 / r.cpu_gcups);
    }
    return rc;
}

#else

int main() {
    std::printf("bench_msv_gpu: built without CUDA support\n");
    return 77;
}

#endif
