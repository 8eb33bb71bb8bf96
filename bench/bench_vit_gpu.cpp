// Benchmark of the CUDA Viterbi-filter engine: random realistic-shaped models
// (M = 86, 260, 1142 by default) against a synthetic protein database; reports
// TCUPS = M x residues / kernel seconds (CUDA events, median of the reps) and
// checks a sample of targets against vit_reference. The peer, timed in the
// same run: the optimized CPU engine on all cores, over the database's first
// 2e7 residues (wall time of score(); its results must equal the GPU's), and
// the GPU's ratio to it. Also prints the DPX probe.
//   bench_vit_gpu [residues=2e8] [models=86,260,1142] [reps=3] [devices=0|all|0,1] [variants]
// "variants" also times every kernel instance once per model.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_support.hpp"
#include "core/hmmer/hmm.hpp"
#include "core/hmmer/profile.hpp"
#include "core/hmmer/vit/vit_cpu.hpp"
#include "core/hmmer/vit/vit_profile.hpp"
#include "core/hmmer/vit/vit_reference.hpp"
#include "core/io/seq_batch.hpp"
#include "kernels/common/gpus.hpp"

#ifdef WARPDP_HAVE_CUDA
#include "bench/vit_dpx_probe.hpp"
#include "kernels/vit/vit_cuda.hpp"

using namespace warpdp;

namespace {

std::mt19937_64 gen(20261121);
float frand(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen); }
int irand(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); }

// Transitions shaped like Pfam's (MM ~ 0.9, short inserts and deletes),
// emissions peaked on one residue per node.
Hmm bench_hmm(int M) {
    Hmm h;
    h.name = "bench";
    h.M = M;
    h.K = 20;
    h.t.assign(static_cast<size_t>(M) + 1, {});
    for (auto& t : h.t) {
        const float mi = frand(0.01f, 0.05f), md = frand(0.01f, 0.05f);
        t[kTMM] = 1.0f - mi - md; t[kTMI] = mi; t[kTMD] = md;
        const float ii = frand(0.3f, 0.6f), dd = frand(0.2f, 0.5f);
        t[kTIM] = 1.0f - ii; t[kTII] = ii; t[kTDM] = 1.0f - dd; t[kTDD] = dd;
    }
    h.mat.assign(static_cast<size_t>(M + 1) * 20, 0.0f);
    h.ins.assign(static_cast<size_t>(M + 1) * 20, 0.05f);
    h.compo.assign(20, 0.05f);
    for (int k = 1; k <= M; ++k) {
        float* p = &h.mat[static_cast<size_t>(k) * 20];
        float sum = 0;
        for (int x = 0; x < 20; ++x) sum += (p[x] = frand(0.01f, 1.0f));
        p[irand(0, 19)] += sum * frand(0.5f, 3.0f);
        sum = 0;
        for (int x = 0; x < 20; ++x) sum += p[x];
        for (int x = 0; x < 20; ++x) p[x] /= sum;
    }
    return h;
}

SeqBatch bench_db(uint64_t residues) {
    SeqBatch b;
    std::lognormal_distribution<double> len(5.6, 0.7);
    while (b.total_residues() < residues) {
        const size_t L = std::clamp<size_t>(static_cast<size_t>(len(gen)), 20, 30000);
        for (size_t i = 0; i < L; ++i) b.residues.push_back(static_cast<uint8_t>(irand(0, 19)));
        b.close_record("s" + std::to_string(b.size()), "");
    }
    return b;
}

}  // namespace

// "vit16_g4_s12", "vit_g8_s12" or both ("16-bit + int32") when a call used both kernels.
std::string used_variants(const VitCudaStats& st) {
    if (st.variant16.empty()) return st.variant;
    return st.variant.empty() ? st.variant16 : st.variant16 + "+" + st.variant;
}

int main(int argc, char** argv) {
    const uint64_t residues = argc > 1 ? static_cast<uint64_t>(std::atof(argv[1])) : 200000000ull;
    std::vector<int> models;
    {
        std::stringstream ss(argc > 2 ? argv[2] : "86,260,1142");
        for (std::string t; std::getline(ss, t, ',');) models.push_back(std::stoi(t));
    }
    const int reps = argc > 3 ? std::atoi(argv[3]) : 3;
    const std::string devarg = argc > 4 ? argv[4] : "0";
    const bool all_variants = argc > 5 && std::string(argv[5]) == "variants";
    const std::vector<int> devices = bench::bench_devices(devarg);
    if (devices.empty()) {
        std::printf("no CUDA GPU visible\n");
        return 77;
    }
    for (const auto& line : vit_cuda_dpx_probe(devices.front())) std::printf("dpx-probe: %s\n", line.c_str());
    const SeqBatch db = bench_db(residues);
    std::printf("database: %zu targets, %llu residues; %zu device(s): %s\n", db.size(),
                static_cast<unsigned long long>(db.total_residues()), devices.size(), list_gpus().front().name.c_str());
    auto eng = make_vit_cuda_engine_ex(devices);
    eng->load_targets(db);
    std::vector<uint32_t> all(db.size());
    for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    std::vector<uint32_t> out(db.size());
    const SeqBatch head = bench::leading_records(db, 20000000);  // the CPU peer's share
    auto cpu = make_vit_cpu_engine(0);
    cpu->load_targets(head);
    std::vector<uint32_t> head_all(head.size()), head_out(head.size());
    for (uint32_t i = 0; i < head_all.size(); ++i) head_all[i] = i;
    int status = 0;
    std::printf("M      variant(s)               tiles  targets   16-bit    residues     cells        kernel_ms(median)  TCUPS   checked  mismatches  GCUPS_cpu  ratio\n");
    for (int M : models) {
        const VitWordProfile wp = build_vit_profile(build_profile(bench_hmm(M)));
        std::vector<double> ms;
        for (int r = 0; r < reps; ++r) {
            eng->score(wp, all, out);
            ms.push_back(eng->last_stats().kernel_ms);
        }
        std::sort(ms.begin(), ms.end());
        const double med = ms[ms.size() / 2];
        const auto st = eng->last_stats();
        const double cells = static_cast<double>(M) * static_cast<double>(st.residues);
        int bad = 0, checked = 0;
        for (size_t t = 0; t < db.size(); t += std::max<size_t>(1, db.size() / 64), ++checked)
            if (vit_reference(wp, db.seq(t)) != out[t]) {
                if (++bad <= 3) std::printf("MISMATCH M=%d target %zu: got %u\n", M, t, out[t]);
            }
        const auto c0 = std::chrono::steady_clock::now();
        cpu->score(wp, head_all, head_out);
        const double cpu_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
        const double cpu_gcups = static_cast<double>(M) * static_cast<double>(head.total_residues()) / cpu_s / 1e9;
        for (size_t t = 0; t < head.size(); ++t)
            if (head_out[t] != out[t] && ++bad <= 3) std::printf("MISMATCH M=%d target %zu: GPU %u, CPU engine %u\n", M, t, out[t], head_out[t]);
        if (bad) status = 1;
        const double tcups = cells / (med * 1e-3) / 1e12;
        std::printf("%-6d %-24s %-6d %-9llu %-9llu %-12llu %-12.4g %-18.2f %-7.3f %-8d %-11d %-10.1f %.0f\n", M,
                    used_variants(st).c_str(), std::max(st.tiles, st.tiles16), static_cast<unsigned long long>(st.targets),
                    static_cast<unsigned long long>(st.targets16), static_cast<unsigned long long>(st.residues), cells,
                    med, tcups, checked, bad, cpu_gcups, tcups * 1e3 / cpu_gcups);
        if (!all_variants) continue;
        // Every instance once (tiled where narrower than M), to set the dispatcher from data.
        for (const std::string& name : vit_cuda_variants()) {
            eng->force_variant(name);
            eng->score(wp, all, out);
            const auto fs = eng->last_stats();
            int fbad = 0;
            for (size_t t = 0; t < db.size(); t += std::max<size_t>(1, db.size() / 16))
                fbad += vit_reference(wp, db.seq(t)) != out[t];
            if (fbad) status = 1;
            std::printf("  forced %-14s ran %-24s tiles %-3d %9.2f ms  %.3f TCUPS  %s\n", name.c_str(),
                        used_variants(fs).c_str(), std::max(fs.tiles, fs.tiles16), fs.kernel_ms,
                        cells / (fs.kernel_ms * 1e-3) / 1e12, fbad ? "MISMATCH" : "ok");
        }
        eng->force_variant("");
    }
    return status;
}

#else

int main() {
    std::printf("bench_vit_gpu: built without CUDA support\n");
    return 77;
}

#endif
