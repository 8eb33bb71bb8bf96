// Benchmark of the CUDA gpu-sw engine: GCUPS (query length x database
// residues / seconds of score(), wall time: kernels, the 32-bit
// recomputation and the copy of the scores back) for each query length,
// default lengths those of CUDASW++4.0's 20 benchmark queries, against a
// synthetic database of N proteins of lognormal lengths (median 350, as
// make_protein_db draws them; BLOSUM62 codes with Swiss-Prot's residue
// composition; fixed seed, so every run times the same data). The database
// is loaded once (load time printed apart); each query is timed best of
// `repeats`. Before timing, the scores of one query against a sample of
// targets must equal the reference recurrence (else MISMATCH and exit 1).
// The goal (>= 5 TCUPS from query length 500 on) is checked and
// printed (met / MISSED). Variants: the default choice (""), a
// comma-separated list of configuration names, each timed at every length,
// or "sweep": every configuration at the lengths it fits exactly (the rates
// the table kernels/sw/sw_configs.inc holds).
//   bench_sw_gpu [targets=1000000] [lengths=144,189,...,5478] [devices=0|all|0,1]
//                [variants=] [repeats=3]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "core/sw/sw_engine.hpp"
#include "core/sw/sw_matrix.hpp"
#include "core/sw/sw_reference.hpp"
#include "kernels/common/gpus.hpp"

#ifdef WARPDP_HAVE_CUDA
#include "kernels/sw/sw_cuda.hpp"

using namespace warpdp;

namespace {

const char* kDefaultLengths = "144,189,222,375,464,567,657,729,850,1000,1500,2005,2504,3005,3564,4061,4548,4743,5147,5478";

// Swiss-Prot's amino-acid frequencies in BLOSUM62's code order (ARNDCQEGHILKMFPSTWYV).
const double kFreq[20] = {.0826, .0553, .0406, .0546, .0137, .0393, .0674, .0708, .0227, .0593,
                          .0965, .0582, .0241, .0386, .0473, .0664, .0535, .0110, .0292, .0686};

std::vector<uint8_t> random_seq(std::mt19937_64& g, size_t n) {
    std::discrete_distribution<int> aa(kFreq, kFreq + 20);
    std::vector<uint8_t> s(n);
    for (auto& c : s) c = static_cast<uint8_t>(aa(g));
    return s;
}

SeqBatch make_db(std::mt19937_64& g, uint64_t n) {
    SeqBatch b;
    std::discrete_distribution<int> aa(kFreq, kFreq + 20);
    std::lognormal_distribution<double> length(std::log(350.0), 0.55);
    b.residues.reserve(n * 400);
    for (uint64_t k = 0; k < n; ++k) {
        const long L = std::max(1L, std::min(40000L, std::lround(length(g))));
        for (long j = 0; j < L; ++j) b.residues.push_back(static_cast<uint8_t>(aa(g)));
        b.close_record("", "");
    }
    return b;
}

}  // namespace

int main(int argc, char** argv) {
    const uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
    const std::vector<uint64_t> lengths = bench::number_list(argc > 2 ? argv[2] : kDefaultLengths);
    const std::string device_arg = argc > 3 ? argv[3] : "0";
    std::vector<std::string> variants;
    {
        std::stringstream ss(argc > 4 ? argv[4] : "");
        for (std::string v; std::getline(ss, v, ',');) variants.push_back(v);
        if (variants.empty()) variants.push_back("");
    }
    const int repeats = argc > 5 ? std::atoi(argv[5]) : 3;
    const std::vector<int> devices = bench::bench_devices(device_arg);
    if (devices.empty()) {
        std::printf("no CUDA GPU visible\n");
        return 77;
    }
    try {
        std::mt19937_64 g(20261126);
        const SeqBatch db = make_db(g, n);
        SwScoring sc;
        sc.matrix = &SwMatrix::builtin("BLOSUM62");
        const auto gpus = list_gpus();
        std::printf("# gpu-sw CUDA benchmark: %s x%zu, BLOSUM62, gap first residue 11, extend 1 (BLAST 10/1), %llu targets, %llu residues (mean %.1f)\n",
                    gpus[static_cast<size_t>(devices[0])].name.c_str(), devices.size(),
                    static_cast<unsigned long long>(db.size()), static_cast<unsigned long long>(db.total_residues()),
                    static_cast<double>(db.total_residues()) / static_cast<double>(std::max<size_t>(db.size(), 1)));
        auto gpu = make_sw_cuda_engine_ex(devices);
        const double load_s = bench::best_seconds(1, [&] { gpu->load(db, sc); });
        std::printf("# load (sort, pack, upload): %.3f s\n", load_s);

        // Check first: one query against a sample of the targets.
        std::vector<int32_t> scores(db.size());
        {
            const auto q = random_seq(g, 300);
            gpu->score(q, scores);
            std::uniform_int_distribution<size_t> pick(0, db.size() - 1);
            int bad = 0;
            for (int k = 0; k < 300; ++k) {
                const size_t t = pick(g);
                const int64_t want = sw_reference_score(q, db.seq(t), sc);
                if (want != scores[t] && ++bad <= 4)
                    std::printf("MISMATCH target %zu (length %llu): gpu %d, reference %lld\n", t,
                                static_cast<unsigned long long>(db.length(t)), scores[t], static_cast<long long>(want));
            }
            if (bad) return 1;
        }

        if (variants.size() == 1 && variants[0] == "sweep") {
            // Every configuration at query lengths it fits exactly: one pass
            // of W rows, and three (its multi-pass form), so that no padded
            // row is counted; the default choice's table takes these rates.
            std::printf("# sweep: every configuration, query length W (one pass) and 3W (three passes)\n");
            std::printf("%-16s %6s %12s %12s\n", "configuration", "W", "GCUPS 1 pass", "GCUPS 3");
            for (const std::string& name : sw_cuda_variants()) {
                gpu->force_variant(name);
                const uint64_t w = sw_cuda_variant_rows(name);
                double rate[2];
                for (int k = 0; k < 2; ++k) {
                    const uint64_t m = k ? 3 * w : w;
                    const auto q = random_seq(g, static_cast<size_t>(m));
                    gpu->score(q, scores);
                    const double s = bench::best_seconds(repeats, [&] { gpu->score(q, scores); });
                    rate[k] = static_cast<double>(m) * static_cast<double>(db.total_residues()) / s / 1e9;
                }
                std::printf("%-16s %6llu %12.1f %12.1f\n", name.c_str(), static_cast<unsigned long long>(w), rate[0], rate[1]);
                std::fflush(stdout);
            }
            return 0;
        }
        for (const std::string& variant : variants) {
            gpu->force_variant(variant);
            std::printf("# configuration: %s\n", variant.empty() ? "default choice" : variant.c_str());
            std::printf("%8s %12s %10s %10s %12s\n", "qlen", "cells", "seconds", "GCUPS", "recomputed");
            double min_tcups_500 = 1e300;
            for (uint64_t m : lengths) {
                const auto q = random_seq(g, static_cast<size_t>(m));
                gpu->score(q, scores);  // warm-up (first launch of each instance, buffers)
                const double s = bench::best_seconds(repeats, [&] { gpu->score(q, scores); });
                const double cells = static_cast<double>(m) * static_cast<double>(db.total_residues());
                const double gcups = cells / s / 1e9;
                std::printf("%8llu %12.4g %10.5f %10.1f %12llu\n", static_cast<unsigned long long>(m), cells, s, gcups,
                            static_cast<unsigned long long>(gpu->last_stats().recomputed));
                std::fflush(stdout);
                if (m >= 500) min_tcups_500 = std::min(min_tcups_500, gcups / 1000);
            }
            if (min_tcups_500 < 1e300)
                std::printf("goal >= 5 TCUPS at query lengths >= 500: %s (lowest %.2f TCUPS)\n",
                            min_tcups_500 >= 5 ? "met" : "MISSED", min_tcups_500);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_sw_gpu: %s\n", e.what());
        return 1;
    }
    return 0;
}

#else
int main() {
    std::printf("bench_sw_gpu: built without CUDA support\n");
    return 77;
}
#endif
