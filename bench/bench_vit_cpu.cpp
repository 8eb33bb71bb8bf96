// Viterbi-filter throughput on the CPU: random profiles of M = 86, 260 and
// 1142 nodes against a few million residues of random protein, for the
// scalar reference, every entry of the variant table (vit_cpu_variants,
// forced by name, one thread) and the threaded engine. Prints cells
// (M x residues) and GCUPS; best of REPEAT runs because the machine is
// shared. Usage: bench_vit_cpu [Mresidues] [repeat] [threads]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_support.hpp"
#include "core/hmmer/profile.hpp"
#include "core/hmmer/vit/vit_cpu.hpp"
#include "core/hmmer/vit/vit_reference.hpp"
#include "core/io/seq_batch.hpp"
#include "tests/support/random_hmm.hpp"
#include "tests/support/simd_test_support.hpp"

using namespace warpdp;
using warpdp::bench::best_seconds;

int main(int argc, char** argv) {
    const double mres = argc > 1 ? std::atof(argv[1]) : 2.0;
    const int repeat = argc > 2 ? std::atoi(argv[2]) : 3;
    const unsigned threads = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 0;
    std::mt19937_64 g(12345);
    // Random protein in records of 100..600 residues (typical UniProt lengths).
    const SeqBatch db = bench::random_protein(static_cast<uint64_t>(mres * 1e6), 100, 600, g);
    std::vector<uint32_t> all(db.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint32_t>(i);
    std::vector<uint32_t> out(db.size()), want(db.size());
    std::printf("# %zu targets, %llu residues, best of %d\n", db.size(),
                static_cast<unsigned long long>(db.total_residues()), repeat);
    std::printf("%6s %-22s %14s %9s %8s\n", "M", "variant", "cells", "seconds", "GCUPS");
    const auto variants = test::runnable_variants(vit_cpu_variants());
    for (int M : {86, 260, 1142}) {
        const VitWordProfile wp = build_vit_profile(build_profile(test::random_hmm(M, g)));
        const double cells = static_cast<double>(M) * static_cast<double>(db.total_residues());
        auto row = [&](const std::string& name, double s, double c) {
            std::printf("%6d %-22s %14.0f %9.3f %8.2f\n", M, name.c_str(), c, s, c / s / 1e9);
        };
        // The reference is slow: time it on a tenth of the targets.
        const size_t nref = std::max<size_t>(1, db.size() / 10);
        uint64_t ref_res = 0;
        for (size_t i = 0; i < nref; ++i) ref_res += db.length(i);
        const double sref = best_seconds(1, [&] {
            for (size_t i = 0; i < nref; ++i) want[i] = vit_reference(wp, db.seq(i));
        });
        row("reference", sref, static_cast<double>(M) * static_cast<double>(ref_res));
        for (const VitCpuVariant& v : variants) {
            auto eng = make_vit_cpu_engine(1, v);
            eng->load_targets(db);
            row(v.name, best_seconds(repeat, [&] { eng->score(wp, all, out); }), cells);
            for (size_t i = 0; i < nref; ++i)
                if (out[i] != want[i]) { std::fprintf(stderr, "MISMATCH target %zu\n", i); return 1; }
        }
        auto eng = make_vit_cpu_engine(threads);
        eng->load_targets(db);
        row(eng->name() + " x" + std::to_string(threads ? threads : std::thread::hardware_concurrency()),
            best_seconds(repeat, [&] { eng->score(wp, all, out); }), cells);
    }
    return 0;
}
