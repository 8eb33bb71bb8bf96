// Smith-Waterman throughput on the CPU (docs/sw.md §5, docs/benchmarks.md):
// queries of several of CUDASW++'s benchmark lengths against a few million
// residues of random protein (records of 100..600 residues), for every
// entry of the CPU variant table forced by name on one thread, the engine on
// `threads` threads, and, in the same run on the same data written as
// FASTA, Debian's parasail_aligner (sw_striped_profile_16, -o 11 -e 1, on one
// thread and on `threads`), whose scores are checked against ours. GCUPS =
// query length x database residues / seconds; best of REPEAT runs (the
// machine may be shared). parasail's time is its whole process (reading the
// FASTA files included: its own timers are not built into Debian's package),
// so its figure is a slight underestimate.
//   bench_sw_cpu [Mresidues] [repeat] [threads] [query lengths, comma-separated]
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "bench/bench_support.hpp"
#include "core/base/alphabet.hpp"
#include "core/io/seq_batch.hpp"
#include "core/sw/sw_cpu.hpp"
#include "core/sw/sw_matrix.hpp"
#include "tests/support/simd_test_support.hpp"

using namespace warpdp;
using warpdp::bench::best_seconds;

namespace {

void write_fasta(const std::string& path, const SeqBatch& b) {
    std::ofstream out(path);
    const Alphabet& abc = Alphabet::amino();
    for (size_t t = 0; t < b.size(); ++t) {
        out << ">s" << t << "\n";
        std::string line;
        for (uint8_t c : b.seq(t)) line += abc.symbol(c);
        out << line << "\n";
    }
}

// parasail_aligner's scores, in database order, and its wall time; an empty
// vector when it is not installed or failed.
std::vector<int32_t> run_parasail(const std::string& dir, unsigned threads, double& seconds) {
    const std::string cmd = "parasail_aligner -a sw_striped_profile_16 -o 11 -e 1 -x -t " + std::to_string(threads) +
                            " -q " + dir + "/q.fa -f " + dir + "/db.fa -g " + dir + "/p.csv <&- > /dev/null 2>&1";
    seconds = best_seconds(1, [&] {
        if (std::system(cmd.c_str()) != 0) seconds = -1;
    });
    std::vector<int32_t> scores;
    std::ifstream in(dir + "/p.csv");
    for (std::string line; std::getline(in, line);) {
        std::stringstream ss(line);
        std::string f[7];
        for (auto& x : f) std::getline(ss, x, ',');
        const size_t t = std::stoul(f[1]);
        if (scores.size() <= t) scores.resize(t + 1, -1);
        scores[t] = std::stoi(f[4]);
    }
    return scores;
}

}  // namespace

int main(int argc, char** argv) {
    const double mres = argc > 1 ? std::atof(argv[1]) : 4.0;
    const int repeat = argc > 2 ? std::atoi(argv[2]) : 3;
    unsigned threads = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 0;
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<int> lengths{144, 464, 1000, 2005, 5478};
    if (argc > 4) {
        lengths.clear();
        std::stringstream ss(argv[4]);
        for (std::string t; std::getline(ss, t, ',');) lengths.push_back(std::stoi(t));
    }
    std::mt19937_64 g(2024);
    SeqBatch db = bench::random_protein(static_cast<uint64_t>(mres * 1e6), 100, 600, g);
    const SwMatrix& m = SwMatrix::builtin("BLOSUM62");
    const SwScoring sc{&m, 11, 1};
    const std::string dir = (std::filesystem::temp_directory_path() / ("bench_sw_cpu." + std::to_string(getpid()))).string();
    std::filesystem::create_directories(dir);
    write_fasta(dir + "/db.fa", db);
    const Alphabet& abc = Alphabet::amino();
    for (uint8_t& x : db.residues) x = m.code_of(static_cast<unsigned char>(abc.symbol(x)));
    const double residues = static_cast<double>(db.total_residues());
    std::printf("# %zu targets, %.0f residues, BLOSUM62, gap first residue 11, extend 1 (BLAST 10/1), best of %d, %u threads\n", db.size(),
                residues, repeat, threads);
    std::printf("%6s %-26s %8s %14s %9s %8s %9s\n", "qlen", "engine", "threads", "cells", "seconds", "GCUPS",
                "vs parasail");
    const auto variants = test::runnable_variants<SwCpuKernels>(sw_cpu_variants());
    int status = 0;
    for (int qlen : lengths) {
        std::vector<uint8_t> q(static_cast<size_t>(qlen));
        std::uniform_int_distribution<int> aa(0, 19);
        SeqBatch qb;
        for (auto& x : q) {
            const uint8_t c = static_cast<uint8_t>(aa(g));
            qb.residues.push_back(c);
            x = m.code_of(static_cast<unsigned char>(abc.symbol(c)));
        }
        qb.close_record("q", "");
        write_fasta(dir + "/q.fa", qb);
        const double cells = static_cast<double>(qlen) * residues;
        std::vector<int32_t> ours(db.size());
        double p1 = 0, pn = 0;
        const std::vector<int32_t> want = run_parasail(dir, 1, p1);
        (void)run_parasail(dir, threads, pn);
        auto row = [&](const std::string& name, unsigned th, double s, double parasail_s) {
            std::printf("%6d %-26s %8u %14.0f %9.3f %8.2f", qlen, name.c_str(), th, cells, s, cells / s / 1e9);
            if (parasail_s > 0) std::printf(" %8.2fx", parasail_s / s);
            std::printf("\n");
        };
        for (const SwCpuVariant& v : variants) {
            SwCpuOptions opt;
            opt.threads = 1;
            auto e = make_sw_cpu_engine(opt, v);
            e->load(db, sc);
            row(v.name, 1, best_seconds(repeat, [&] { e->score(q, ours); }), want.empty() ? 0 : p1);
        }
        SwCpuOptions opt;
        opt.threads = threads;
        auto e = make_sw_cpu_engine(opt, choose_variant<sw_cpu_variants>());
        e->load(db, sc);
        row(e->name(), threads, best_seconds(repeat, [&] { e->score(q, ours); }), want.empty() ? 0 : pn);
        if (want.empty()) {
            std::printf("%6d %-26s (not run: parasail_aligner missing or failed)\n", qlen, "parasail_aligner");
            continue;
        }
        row("parasail sw_striped_profile_16", 1, p1, 0);
        row("parasail sw_striped_profile_16", threads, pn, 0);
        if (want != ours) {
            std::fprintf(stderr, "MISMATCH with parasail_aligner at query length %d\n", qlen);
            status = 1;
        }
    }
    std::filesystem::remove_all(dir);
    return status;
}
