// gpu-hmmsearch's envelope stage on a GPU against the CPU engine's kernels on
// the same envelopes (docs/hmmer-filters.md §16.8-§16.10): N envelopes a
// model, homologs of about the model's length as hits' envelopes are, all
// models' jobs in one run of the CUDA Forward/Backward/decoding engine, then
// the optimal-accuracy stage (fill, traceback, null2) on the resident
// posteriors with each fill form (four threads an envelope, a warp an
// envelope), and the Forward/Backward/decoding alone with each of its
// kernel forms; the CPU runs the same kernels (vector forms) on T threads.
// Prints seconds and cells (M x L summed) a second of each part, best of
// REPEAT; the fill forms' results are compared bit for bit with each other
// and their scores and null2 with the CPU's ("MISMATCH" otherwise).
// Usage: bench_dom_gpu [hmm=examples/data/tutorial3.hmm] [envelopes a model=2000] [threads=all] [repeat=3] [device=0]
#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_hmm_support.hpp"
#include "bench/bench_support.hpp"
#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/hmmer/domains/dom_cpu.hpp"
#include "core/hmmer/domains/dom_null2.hpp"
#include "core/hmmer/domains/dom_optacc.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/profile.hpp"
#include "kernels/dom/dom_cuda.hpp"
#include "kernels/dom/dom_optacc_cuda.hpp"

using namespace warpdp;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

bool same_bits(float a, float b) {
    return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b) || (std::isnan(a) && std::isnan(b));
}

struct Envelope {
    uint32_t model;
    std::vector<uint8_t> dsq;
    DomSpecialOdds odds;
};

// What the CPU kernels give for one envelope (what the GPU must equal).
struct CpuOut {
    bool decoded = false;
    float oasc = 0.0f;
    std::vector<float> null2;
};

// One pass of the CPU kernels over every envelope on `threads` threads;
// returns the wall seconds, and the thread-seconds of the Forward, Backward
// and decoding (fb) and of the optimal-accuracy stage (oa).
double cpu_pass(const std::vector<FwdProfile>& fps, const std::vector<Envelope>& envs, unsigned threads,
                std::vector<CpuOut>& out, double& fb, double& oa) {
    std::atomic<size_t> next{0};
    std::vector<double> t_fb(threads, 0.0), t_oa(threads, 0.0);
    const auto work = [&](unsigned w) {
        DomMatrix f, b, p, ox;
        DomTrace tr;
        for (size_t e; (e = next.fetch_add(1)) < envs.size();) {
            const Envelope& v = envs[e];
            const FwdProfile& fp = fps[v.model];
            const double t0 = now();
            const float fsc = dom_forward_cpu(fp, v.odds, v.dsq, f, true);
            const float bsc = dom_backward_cpu(fp, v.odds, v.dsq, f, b, true);
            const bool ok = !std::isnan(fsc) && !std::isnan(bsc) && dom_decoding_cpu(v.odds, f, b, p) == DomDecodeStatus::ok;
            const double t1 = now();
            CpuOut& o = out[e];
            o.decoded = ok;
            if (ok) {
                o.oasc = dom_optimal_accuracy_cpu(fp, v.odds, p, ox);
                dom_oa_trace(fp, v.odds, p, ox, tr);
                o.null2 = dom_null2_by_expectation(fp, Alphabet::amino(), p);
            }
            t_fb[w] += t1 - t0;
            t_oa[w] += now() - t1;
        }
    };
    const double t0 = now();
    {
        std::vector<std::jthread> pool;
        for (unsigned w = 1; w < threads; ++w) pool.emplace_back(work, w);
        work(0);
    }
    const double wall = now() - t0;
    fb = oa = 0;
    for (unsigned w = 0; w < threads; ++w) {
        fb += t_fb[w];
        oa += t_oa[w];
    }
    return wall;
}

bool same_oa(const DomOaResults& a, const DomOaResults& b) {
    if (a.size() != b.size() || a.step_off != b.step_off || a.steps != b.steps || a.trace_error != b.trace_error ||
        a.null2.size() != b.null2.size() || a.step_pp.size() != b.step_pp.size())
        return false;
    for (size_t e = 0; e < a.size(); ++e)
        if (!same_bits(a.oasc[e], b.oasc[e])) return false;
    for (size_t k = 0; k < a.null2.size(); ++k)
        if (!same_bits(a.null2[k], b.null2[k])) return false;
    for (size_t k = 0; k < a.step_pp.size(); ++k)
        if (!same_bits(a.step_pp[k], b.step_pp[k])) return false;
    return true;
}

}  // namespace

int main(int argc, char** argv) try {
    const std::string path = argc > 1 ? argv[1] : "examples/data/tutorial3.hmm";
    const size_t per_model = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 2000;
    const unsigned threads = argc > 3 && std::atoi(argv[3]) > 0 ? static_cast<unsigned>(std::atoi(argv[3]))
                                                                 : std::max(1u, std::thread::hardware_concurrency());
    const int repeat = argc > 4 ? std::max(1, std::atoi(argv[4])) : 3;
    const int device = argc > 5 ? std::atoi(argv[5]) : 0;

    const std::vector<Hmm> hmms = read_all_hmms(path);
    std::vector<FwdProfile> fps;
    std::vector<const FwdProfile*> models;
    for (const Hmm& h : hmms) fps.push_back(build_fwd_profile(build_profile(h)));
    for (const FwdProfile& fp : fps) models.push_back(&fp);
    // Envelopes of 0.7 to 1.5 times their model's length: a domain with a
    // little flank, as hits' envelopes are.
    std::mt19937_64 g(20261207);
    std::vector<Envelope> envs;
    double cells = 0;
    for (size_t m = 0; m < hmms.size(); ++m)
        for (size_t k = 0; k < per_model; ++k) {
            const double f = std::uniform_real_distribution<double>(0.7, 1.5)(g);
            const size_t L = std::max<size_t>(10, static_cast<size_t>(f * hmms[m].M));
            envs.push_back({static_cast<uint32_t>(m), bench::homolog(hmms[m], L, g), dom_special_odds(L, false)});
            cells += static_cast<double>(L) * hmms[m].M;
        }
    std::printf("# %s: %zu models, %zu envelopes, %.3g cells (M x L); CPU %u threads; best of %d\n", path.c_str(),
                hmms.size(), envs.size(), cells, threads, repeat);

    std::vector<CpuOut> cpu(envs.size());
    double cpu_wall = 1e300, cpu_fb = 0, cpu_oa = 0;
    for (int r = 0; r < repeat; ++r) {
        double fb = 0, oa = 0;
        const double w = cpu_pass(fps, envs, threads, cpu, fb, oa);
        if (w < cpu_wall) {
            cpu_wall = w;
            cpu_fb = fb;
            cpu_oa = oa;
        }
    }

    // The Forward/Backward/decoding engine with each kernel form, alone;
    // then the optimal-accuracy stage with each fill form on the resident
    // posteriors of the last form's run.
    std::vector<DomCudaJob> jobs;
    for (const Envelope& v : envs) jobs.push_back({v.dsq, v.odds, true, v.model});
    double gpu_fb[2] = {1e300, 1e300}, gpu_oa4 = 1e300, gpu_oaw = 1e300;
    int mismatches = 0;
    std::vector<DomCudaResult> res(jobs.size()), first(jobs.size());
    std::unique_ptr<DomCudaEngine> fb_engine;
    for (int f = 0; f < 2; ++f) {
        fb_engine = make_dom_cuda_engine(device, 0, f ? DomCudaForm::warp : DomCudaForm::lanes4);
        fb_engine->set_models(models);
        for (int r = 0; r < repeat; ++r) gpu_fb[f] = std::min(gpu_fb[f], bench::seconds_of([&] { fb_engine->run(jobs, res); }));
        if (f == 0) first = res;
        for (size_t z = 0; f == 1 && z < jobs.size(); ++z)
            mismatches += !same_bits(first[z].fwd_score, res[z].fwd_score) ||
                          !same_bits(first[z].bck_score, res[z].bck_score) || first[z].decoding != res[z].decoding;
    }
    // Each model's latency: one envelope of its length alone, per form
    // (rows are serial within a job, so this is a row's time times L).
    std::printf("%-24s %6s %6s %12s %12s %10s %10s\n", "model", "M", "L", "4 threads ms", "warp ms", "4t us/row",
                "warp us/row");
    for (size_t m = 0; m < hmms.size() && m < 12; ++m) {
        const size_t L = static_cast<size_t>(hmms[m].M);
        const std::vector<uint8_t> dsq = bench::homolog(hmms[m], L, g);
        const std::vector<DomCudaJob> one{{dsq, dom_special_odds(L, false), true, static_cast<uint32_t>(m)}};
        std::vector<DomCudaResult> r1(1);
        double ms[2];
        for (int f = 0; f < 2; ++f) {
            auto e = make_dom_cuda_engine(device, 0, f ? DomCudaForm::warp : DomCudaForm::lanes4);
            e->set_models(models);
            ms[f] = 1e3 * bench::best_seconds(repeat, [&] { e->run(one, r1); });
        }
        std::printf("%-24s %6d %6zu %12.3f %12.3f %10.1f %10.1f\n", hmms[m].name.c_str(), hmms[m].M, L, ms[0], ms[1],
                    1e3 * ms[0] / static_cast<double>(L), 1e3 * ms[1] / static_cast<double>(L));
    }
    DomOaTestHooks h4, hw;
    h4.fill_form = DomOaFillForm::lanes4;
    hw.fill_form = DomOaFillForm::warp;
    h4.oa_scratch_bytes = hw.oa_scratch_bytes = uint64_t{4} << 30;
    auto oa4 = make_dom_oa_cuda_engine_ex(device, h4), oaw = make_dom_oa_cuda_engine_ex(device, hw);
    for (int r = 0; r < repeat; ++r) {
        double t4 = 0, tw = 0;
        fb_engine->run(jobs, res, [&](size_t first_job, size_t count) {
            const float* arena = fb_engine->arena();
            std::vector<DomOaEnvelope> oe;
            std::vector<size_t> which;
            for (size_t z = first_job; z < first_job + count; ++z) {
                if (std::isnan(res[z].fwd_score) || std::isnan(res[z].bck_score) || res[z].decoding != DomDecodeStatus::ok)
                    continue;
                const DomDeviceMatrix pp = fb_engine->posterior(z);
                oe.push_back({static_cast<uint64_t>(pp.cells - arena), static_cast<uint64_t>(pp.specials - arena), pp.L,
                              jobs[z].odds, jobs[z].model});
                which.push_back(z);
            }
            DomOaResults a, b;
            t4 += bench::seconds_of([&] { oa4->run(models, Alphabet::amino(), DomOaPosteriors{arena, arena, oe}, a); });
            tw += bench::seconds_of([&] { oaw->run(models, Alphabet::amino(), DomOaPosteriors{arena, arena, oe}, b); });
            if (r > 0) return;
            mismatches += !same_oa(a, b);
            for (size_t e = 0; e < which.size(); ++e) {
                const CpuOut& c = cpu[which[e]];
                const std::span<const float> n2 = a.null2_of(e);
                bool same = c.decoded && same_bits(c.oasc, a.oasc[e]) && c.null2.size() == n2.size();
                for (size_t k = 0; same && k < n2.size(); ++k) same = same_bits(c.null2[k], n2[k]);
                mismatches += !same;
            }
        });
        gpu_oa4 = std::min(gpu_oa4, t4);
        gpu_oaw = std::min(gpu_oaw, tw);
    }
    for (size_t z = 0; z < envs.size(); ++z) mismatches += cpu[z].decoded != (res[z].decoding == DomDecodeStatus::ok);

    const double cpu_fb_wall = cpu_wall * cpu_fb / (cpu_fb + cpu_oa), cpu_oa_wall = cpu_wall - cpu_fb_wall;
    std::printf("%-44s %9s %9s %9s\n", "part", "seconds", "Gcells/s", "CPU/GPU");
    const auto line = [&](const char* what, double s, double cpu_s) {
        char ratio[16] = "-";
        if (cpu_s > 0) std::snprintf(ratio, sizeof ratio, "%.2fx", cpu_s / s);
        std::printf("%-44s %9.4f %9.2f %9s\n", what, s, cells / s / 1e9, ratio);
    };
    line("cpu: forward+backward+decoding (share)", cpu_fb_wall, 0);
    line("cpu: optimal accuracy (share)", cpu_oa_wall, 0);
    line("cpu: whole", cpu_wall, 0);
    line("cuda: forward+backward+decoding, 4 threads", gpu_fb[0], cpu_fb_wall);
    line("cuda: forward+backward+decoding, warp", gpu_fb[1], cpu_fb_wall);
    line("cuda: optimal accuracy, 4 threads", gpu_oa4, cpu_oa_wall);
    line("cuda: optimal accuracy, warp", gpu_oaw, cpu_oa_wall);
    line("cuda: whole, 4 threads", gpu_fb[0] + gpu_oa4, cpu_wall);
    line("cuda: whole, warp", gpu_fb[1] + gpu_oaw, cpu_wall);
    if (mismatches) std::printf("MISMATCH: %d envelopes differ\n", mismatches);
    return mismatches ? 1 : 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_dom_gpu: %s\n", e.what());
    return 2;
}
