// Helpers shared by the benchmarks: the best-of-N timer (the machine is
// shared; the best run is the least disturbed one), random protein targets
// of typical lengths drawn from the benchmark's fixed-seed generator so every
// run times the same data, 454-like amplicon reads for the NW benchmarks,
// and the GPU list of the GPU benchmarks.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/io/seq_batch.hpp"
#include "core/nw/nw_reads.hpp"
#include "kernels/common/gpus.hpp"

namespace warpdp::bench {

// Seconds of the fastest of `repeats` calls of f().
template <class F>
double best_seconds(int repeats, F&& f) {
    double best = 1e300;
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

// Seconds of one call of f().
template <class F>
double seconds_of(F&& f) {
    return best_seconds(1, std::forward<F>(f));
}

// n random RNA bases (codes 0-3) from g.
inline std::vector<uint8_t> random_rna(size_t n, std::mt19937_64& g) {
    std::uniform_int_distribution<int> base(0, 3);
    std::vector<uint8_t> s(n);
    for (auto& c : s) c = static_cast<uint8_t>(base(g));
    return s;
}

// The steps of Nussinov's recurrence on n bases, (n^3 - n) / 6.
inline double nussinov_steps(uint64_t n) { return (static_cast<double>(n) * n * n - static_cast<double>(n)) / 6.0; }

// The first records of `db` that hold `residues` residues (one more record
// at most): the share a benchmark times its CPU peer on.
// "10000,26000,37000": the benchmarks' lists of sizes (empty items skipped).
inline std::vector<uint64_t> number_list(const std::string& s) {
    std::vector<uint64_t> v;
    std::stringstream ss(s);
    for (std::string x; std::getline(ss, x, ',');)
        if (!x.empty()) v.push_back(std::strtoull(x.c_str(), nullptr, 10));
    return v;
}

inline SeqBatch leading_records(const SeqBatch& db, uint64_t residues) {
    SeqBatch head;
    for (size_t t = 0; t < db.size() && head.total_residues() < residues; ++t) {
        const auto s = db.seq(t);
        head.residues.insert(head.residues.end(), s.begin(), s.end());
        head.close_record(db.names[t], "");
    }
    return head;
}

// Random canonical protein (codes 0..19) in records of min_len..max_len
// residues, until at least `residues` residues.
inline SeqBatch random_protein(uint64_t residues, int min_len, int max_len, std::mt19937_64& g) {
    SeqBatch b;
    std::uniform_int_distribution<int> len(min_len, max_len), aa(0, 19);
    while (b.total_residues() < residues) {
        for (int n = len(g); n > 0; --n) b.residues.push_back(static_cast<uint8_t>(aa(g)));
        b.close_record("", "");
    }
    return b;
}

// "all" or a comma-separated list of GPU indices; empty when no GPU is visible.
inline std::vector<int> bench_devices(const std::string& arg) {
    const auto gpus = list_gpus();
    std::vector<int> devices;
    if (gpus.empty()) return devices;
    if (arg == "all") {
        for (const auto& g : gpus) devices.push_back(g.index);
    } else {
        std::stringstream ss(arg);
        for (std::string t; std::getline(ss, t, ',');) devices.push_back(std::stoi(t));
    }
    return devices;
}

// n 454-like reads: copies of one random template of `length` with up to 12
// homopolymer indels and substitutions each (and, with with_n, some N).
inline NwReads amplicon_reads(std::mt19937_64& gen, int n, int length, bool with_n) {
    const auto irand = [&gen](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
    const char* acgt = "ACGT";
    std::string base(static_cast<size_t>(length), 'A');
    for (auto& c : base) c = acgt[irand(0, 3)];
    NwReads r;
    for (int k = 0; k < n; ++k) {
        std::string s = base;
        for (int e = irand(0, 12); e > 0; --e) {
            const size_t at = static_cast<size_t>(irand(0, static_cast<int>(s.size()) - 1));
            switch (irand(0, 3)) {
                case 0: s.insert(at, 1, s[at]); break;
                case 1: s.erase(at, 1); break;
                case 2: s[at] = acgt[irand(0, 3)]; break;
                default: if (with_n) s[at] = 'N'; break;
            }
        }
        r.add("r" + std::to_string(k), s);
    }
    return r;
}

}  // namespace warpdp::bench
