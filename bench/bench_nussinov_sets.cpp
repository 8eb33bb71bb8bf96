// Benchmark of gpu-nussinov's engines on the length distributions users fold
// (issue 37): BioMarKs' 50,000 18S V4 amplicons (the vsearch example file,
// or amplicon-like lengths drawn here when it is absent), 100,000 x 200,
// 10,000 x 1,000, 150 x 4,000, 20 x 8,000, one of 26,000, a mixed-length
// set (5,000 lengths log-uniform in 100..3,000, shuffled), and optionally
// one of 100,000 (GPU only). Each set: the CUDA engine with structures and
// scores only (wall of fold() and summed kernel time), then the CPU engine
// with structures on all host threads, its results compared with the GPU's
// exactly (score and structure of every sequence: MISMATCH and exit 1).
// T steps/s = steps / seconds, steps = sum over sequences of (n^3 - n) / 6.
//   bench_nussinov_sets [fasta=BioMarKs50k.fsa.gz] [sets=all] [device=0] [batch_max=0] [cpu=1]
// sets: comma-separated names of: biomarks 100000x200 10000x1000 150x4000
// 20x8000 1x26000 mixed 1x100000 ("all" = every one but 1x100000);
// batch_max: set_batch_max_length (0: the shared-memory limit,
// docs/nussinov.md §10.2); cpu=0 skips the CPU engine.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_support.hpp"
#include "core/base/alphabet.hpp"
#include "core/io/seq_reader.hpp"
#include "core/nussinov/nussinov_cpu.hpp"
#include "core/nussinov/nussinov_engine.hpp"
#include "core/nussinov/rna_codes.hpp"
#include "kernels/common/gpus.hpp"

#ifdef WARPDP_HAVE_CUDA
#include "kernels/nussinov/nussinov_cuda.hpp"

using namespace warpdp;

namespace {

std::mt19937_64 gen(20261207);


struct Set {
    std::string name;
    std::vector<std::vector<uint8_t>> seqs;
    double steps = 0;
};

Set uniform_set(const std::string& name, size_t count, size_t len) {
    Set s{name, {}, 0};
    for (size_t k = 0; k < count; ++k) s.seqs.push_back(bench::random_rna(len, gen));
    return s;
}

// The FASTA's records as engine codes; empty when the file is absent.
std::vector<std::vector<uint8_t>> read_rna(const std::string& path) {
    std::vector<std::vector<uint8_t>> out;
    if (path.empty() || !std::filesystem::exists(path)) return out;
    SeqReader reader(path, Alphabet::rna());
    SeqBatch batch;
    while (reader.next(batch))
        for (size_t r = 0; r < batch.size(); ++r) {
            const auto s = batch.seq(r);
            std::vector<uint8_t> codes(s.begin(), s.end());
            to_rna_engine_codes(codes);
            out.push_back(std::move(codes));
        }
    return out;
}

// Amplicon-like lengths when the real reads are absent: BioMarKs' shape
// (80% in 374..387, mean 381, a few short ones and a tail to ~500).
Set amplicon_set(size_t count) {
    Set s{"biomarks(generated)", {}, 0};
    std::normal_distribution<double> body(381.0, 5.0);
    std::uniform_real_distribution<double> u(0, 1);
    for (size_t k = 0; k < count; ++k) {
        const double x = u(gen);
        const double len = x < 0.01 ? 150 + 200 * u(gen) : x > 0.99 ? 390 + 110 * u(gen) : body(gen);
        s.seqs.push_back(bench::random_rna(static_cast<size_t>(std::clamp(len, 2.0, 497.0)), gen));
    }
    return s;
}

Set mixed_set(size_t count) {
    Set s{"mixed", {}, 0};
    std::uniform_real_distribution<double> lg(std::log(100.0), std::log(3000.0));
    for (size_t k = 0; k < count; ++k) s.seqs.push_back(bench::random_rna(static_cast<size_t>(std::exp(lg(gen))), gen));
    return s;
}

std::vector<NussinovFold> fold(NussinovEngine& e, const Set& s, bool structure, double& seconds) {
    std::vector<std::span<const uint8_t>> spans(s.seqs.begin(), s.seqs.end());
    std::vector<NussinovFold> out(s.seqs.size());
    seconds = bench::seconds_of([&] { e.fold(spans, NussinovParams{}, structure, out); });
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string fasta = argc > 1 ? argv[1] : "BioMarKs50k.fsa.gz";
    std::string sets = argc > 2 ? argv[2] : "all";
    const int device = argc > 3 ? std::atoi(argv[3]) : 0;
    const uint32_t batch_max = argc > 4 ? static_cast<uint32_t>(std::strtoul(argv[4], nullptr, 10)) : 0;
    const bool with_cpu = argc > 5 ? std::atoi(argv[5]) != 0 : true;
    if (sets == "all") sets = "biomarks,100000x200,10000x1000,150x4000,20x8000,1x26000,mixed";
    const auto gpus = list_gpus();
    if (gpus.empty()) {
        std::printf("no CUDA GPU visible\n");
        return 77;
    }
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    auto gpu = make_nussinov_cuda_engine_ex({device});
    gpu->set_batch_max_length(batch_max);
    auto cpu = make_nussinov_cpu_engine(threads);
    std::string limits;
    for (uint32_t l : nussinov_cuda_batch_class_limits(device)) limits += (limits.empty() ? "" : ",") + std::to_string(l);
    std::printf("GPU %d: %s; CPU engine: %u threads; batch class limits (unit weights): %s; batch_max %u\n", device,
                gpus[static_cast<size_t>(device)].name.c_str(), threads, limits.c_str(), batch_max);
    {  // warm-up: context, modules, every shape
        Set w = uniform_set("warm-up", 3, 3000);
        w.seqs.push_back(bench::random_rna(300, gen));
        w.seqs.push_back(bench::random_rna(900, gen));
        double t = 0;
        fold(*gpu, w, true, t);
    }
    std::printf("\n%-20s %7s %9s %-32s %9s %9s %8s %9s %9s %9s %8s %8s %7s\n", "set", "count", "steps", "variant",
                "kernel_s", "wall_s", "T/s_k", "struct_s", "T/s_st", "cpu_s", "T/s_cpu", "gpu/cpu", "check");
    int bad_total = 0;
    std::stringstream list(sets);
    for (std::string name; std::getline(list, name, ',');) {
        Set s;
        if (name == "biomarks") {
            s.seqs = read_rna(fasta);
            s.name = "biomarks";
            if (s.seqs.empty()) s = amplicon_set(50000);
        } else if (name == "mixed") {
            s = mixed_set(5000);
        } else if (const auto x = name.find('x'); x != std::string::npos) {
            s = uniform_set(name, std::strtoull(name.substr(0, x).c_str(), nullptr, 10),
                            std::strtoull(name.substr(x + 1).c_str(), nullptr, 10));
        } else {
            std::printf("unknown set %s\n", name.c_str());
            return 2;
        }
        for (const auto& q : s.seqs) s.steps += bench::nussinov_steps(q.size());
        double t_struct = 0, t_score = 0, t_cpu = -1;
        const auto got = fold(*gpu, s, true, t_struct);
        fold(*gpu, s, false, t_score);
        const auto st = gpu->last_stats();
        const double ks = st.kernel_ms / 1e3;
        std::string check = "-";
        // The CPU engine where it finishes in minutes (not n = 100,000).
        if (with_cpu && s.steps < 5e13) {
            const auto want = fold(*cpu, s, true, t_cpu);
            int bad = 0;
            for (size_t k = 0; k < s.seqs.size(); ++k)
                if (got[k].score != want[k].score || got[k].structure != want[k].structure) {
                    if (++bad <= 3)
                        std::printf("MISMATCH %s seq %zu (n = %zu): gpu score %lld, cpu score %lld%s\n", s.name.c_str(), k,
                                    s.seqs[k].size(), static_cast<long long>(got[k].score),
                                    static_cast<long long>(want[k].score),
                                    got[k].score == want[k].score ? ", structures differ" : "");
                }
            bad_total += bad;
            check = bad ? "MISMATCH" : "equal";
        }
        std::printf("%-20s %7zu %9.2e %-32s %9.3f %9.3f %8.2f %9.3f %9.2f %9.3f %8.3f %8.1f %7s\n", s.name.c_str(),
                    s.seqs.size(), s.steps, st.variant.c_str(), ks, t_score, s.steps / ks / 1e12, t_struct,
                    s.steps / t_struct / 1e12, t_cpu, t_cpu > 0 ? s.steps / t_cpu / 1e12 : 0.0,
                    t_cpu > 0 ? t_cpu / t_struct : 0.0, check.c_str());
        std::printf("%-20s (scores only: %llu launches, %llu batch / %llu tiled sequences)\n", "",
                    static_cast<unsigned long long>(st.launches), static_cast<unsigned long long>(st.batch_sequences),
                    static_cast<unsigned long long>(st.long_sequences));
        std::fflush(stdout);
    }
    std::printf("\nkernel_s, wall_s: GPU scores only (kernel time, wall of fold()); struct_s: GPU wall with structures;\n"
                "cpu_s: CPU engine wall with structures; gpu/cpu = cpu_s / struct_s; T/s = 1e12 steps a second\n");
    if (bad_total) std::printf("MISMATCH: %d results differ from the CPU engine\n", bad_total);
    return bad_total ? 1 : 0;
}

#else
int main() {
    std::printf("built without CUDA\n");
    return 77;
}
#endif
