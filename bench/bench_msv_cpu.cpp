// Benchmark of the CPU MSV engine: GCUPS (model nodes x residues / second)
// of the scalar reference (on a slice), every entry of the variant table
// (msv_cpu_variants) forced by name on one thread (the serial one on the
// slice too), and the threaded engine, for random models of typical sizes
// against random protein of typical lengths. Prints the best of N repeats
// (the machine is shared; the best run is the least disturbed one).
//   usage: bench_msv_cpu [Mresidues=20] [repeats=3] [threads=0] [M,M,...=86,260,1142]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "core/hmmer/hmmer_units.hpp"
#include "core/hmmer/msv/msv_cpu.hpp"
#include "core/hmmer/msv/msv_reference.hpp"
#include "tests/support/simd_test_support.hpp"

using namespace warpdp;
using warpdp::bench::best_seconds;

namespace {

// A profile shaped like a real one: each node emits from a random log-normal
// distribution with one favoured residue, scored in third-bits against a flat
// background, so random targets score negative on average and SSV falls back
// rarely (docs/hmmer-filters.md §5.3 reports 6-11 % on real data).
// Gap/'*'/'~' are prohibited.
MsvByteProfile bench_profile(int M, std::mt19937_64& g) {
    std::normal_distribution<double> gauss(0.0, 1.0);
    std::uniform_int_distribution<int> pick(0, 19);
    std::vector<double> sc(static_cast<size_t>(M + 1) * 20);
    double mx = 0.0;
    for (int k = 1; k <= M; ++k) {
        double w[20], sum = 0.0;
        for (double& v : w) sum += (v = std::exp(gauss(g)));
        const int fav = pick(g);
        sum += w[fav] * 9.0;
        w[fav] *= 10.0;
        for (int x = 0; x < 20; ++x) {
            sc[static_cast<size_t>(k) * 20 + x] = 3.0 * std::log2(w[x] / sum / 0.05);
            mx = std::max(mx, sc[static_cast<size_t>(k) * 20 + x]);
        }
    }
    MsvByteProfile p;
    p.M = M;
    p.bias = static_cast<uint8_t>(std::lround(mx));
    p.tbm = hmmer::unbiased_byte(std::log(2.0f / (static_cast<float>(M) * static_cast<float>(M + 1))));
    p.cost.assign(29 * static_cast<size_t>(M + 1), 255);
    for (int k = 1; k <= M; ++k) {
        for (int x = 0; x < 20; ++x)
            p.cost[x * static_cast<size_t>(M + 1) + k] =
                static_cast<uint8_t>(std::clamp<long>(p.bias - std::lround(sc[static_cast<size_t>(k) * 20 + x]), 0, 255));
        for (int x = 21; x <= 26; ++x) p.cost[x * static_cast<size_t>(M + 1) + k] = static_cast<uint8_t>(p.bias + 3);
    }
    return p;
}

SeqBatch slice(const SeqBatch& b, uint64_t residues) {
    SeqBatch s;
    for (size_t t = 0; t < b.size() && s.total_residues() < residues; ++t) {
        const auto q = b.seq(t);
        s.residues.insert(s.residues.end(), q.begin(), q.end());
        s.close_record("", "");
    }
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    const double mres = argc > 1 ? std::atof(argv[1]) : 20.0;
    const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
    const unsigned threads = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 0u;
    std::vector<int> models;
    for (const char* m = argc > 4 ? argv[4] : "86,260,1142"; *m;) {
        char* end = nullptr;
        const long v = std::strtol(m, &end, 10);
        if (end == m || v < 1) {
            std::fprintf(stderr, "bench_msv_cpu: bad model length list '%s'\n", argv[4]);
            return 2;
        }
        models.push_back(static_cast<int>(v));
        m = *end == ',' ? end + 1 : end;
    }
    std::mt19937_64 g(20260101);
    const SeqBatch all = bench::random_protein(static_cast<uint64_t>(mres * 1e6), 200, 500, g);
    const SeqBatch small = slice(all, 300000);
    const SeqBatch fifth = slice(all, all.total_residues() / 5);
    std::printf("# %zu targets, %llu residues (reference: %zu targets, %llu residues); best of %d\n", all.size(),
                static_cast<unsigned long long>(all.total_residues()), small.size(),
                static_cast<unsigned long long>(small.total_residues()), repeats);
    std::printf("%6s  %-27s %12s %14s %9s %8s %8s\n", "M", "variant", "residues", "cells", "seconds", "GCUPS", "x ref");
    int mismatches = 0;
    const auto variants = test::runnable_variants(msv_cpu_variants());
    for (int M : models) {
        const MsvByteProfile p = bench_profile(M, g);
        std::vector<uint16_t> ref(small.size());
        auto row = [&](const std::string& name, const SeqBatch& b, double secs, double ref_gcups) {
            const double cells = static_cast<double>(M) * static_cast<double>(b.total_residues());
            const double gcups = cells / secs * 1e-9;
            std::printf("%6d  %-27s %12llu %14.4g %9.4f %8.2f %8.1f\n", M, name.c_str(),
                        static_cast<unsigned long long>(b.total_residues()), cells, secs, gcups,
                        ref_gcups > 0 ? gcups / ref_gcups : 1.0);
            return gcups;
        };
        const double tref = best_seconds(1, [&] {
            for (size_t t = 0; t < small.size(); ++t) ref[t] = msv_reference(p, small.seq(t));
        });
        const double ref_gcups = row("reference", small, tref, 0);
        size_t fallbacks = 0;
        for (size_t t = 0; t < small.size(); ++t) fallbacks += ssv_reference(p, small.seq(t)) == kSsvNoResult;
        std::printf("%6d  # bias %d, SSV falls back to full MSV for %.1f%% of the slice\n", M, p.bias,
                    100.0 * static_cast<double>(fallbacks) / static_cast<double>(small.size()));
        for (const MsvCpuVariant& v : variants) {
            const MsvStripedProfile sp(p, v.kernels.width);
            MsvCpuScratch scratch;
            uint64_t sink = 0;
            // The serial variant runs at the reference's pace: the slice will do.
            const bool serial = v.isa == CpuIsa::base;
            const SeqBatch& whole = serial ? small : all;
            const double s = best_seconds(repeats, [&] {
                for (size_t t = 0; t < whole.size(); ++t) sink += msv_cpu_score_one(v, p, sp, whole.seq(t), scratch);
            });
            for (size_t t = 0; t < small.size(); ++t)
                mismatches += msv_cpu_score_one(v, p, sp, small.seq(t), scratch) != ref[t];
            row(std::string(v.name) + " x1", whole, s, ref_gcups);
            // The full MSV alone (the fallback path), on a fifth of the targets.
            const SeqBatch& part = serial ? small : fifth;
            const double sf = best_seconds(repeats, [&] {
                for (size_t t = 0; t < part.size(); ++t)
                    sink += msv_cpu_score_one(v, p, sp, part.seq(t), scratch, MsvPass::full);
            });
            row(std::string(v.name) + " full x1", part, sf, ref_gcups);
            if (sink == 42) std::printf(" ");
        }
        auto engine = make_msv_cpu_engine(threads);
        engine->load_targets(all);
        std::vector<uint16_t> out(all.size());
        const double s = best_seconds(repeats, [&] { engine->score(p, out); });
        for (size_t t = 0; t < small.size(); ++t) mismatches += out[t] != ref[t];
        row(engine->name(), all, s, ref_gcups);
    }
    std::printf("# mismatches against the reference on the slice: %d\n", mismatches);
    return mismatches == 0 ? 0 : 1;
}
