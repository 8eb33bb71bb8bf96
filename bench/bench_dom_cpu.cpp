// gpu-hmmsearch's CPU last stage, kernel by kernel (docs/hmmer-filters.md
// §16.2, §16.4): Forward and Backward (parser and full), posterior
// decoding, the optimal-accuracy fill, null2 by expectation, the stochastic
// traceback and the engines' search of one target end to end, scalar reference beside vector
// form, one thread (and the Forward filter's CPU engine on the same target,
// the parser's arithmetic without a matrix), on real models (tutorial3.hmm: fn3 M=86, globins4 M=149,
// Pkinase M=260) and homologs of several lengths (one sampled domain in
// random flanks, fixed seed). Prints ms a call and cells (M x L) a second,
// best of REPEAT samples; the two forms' results must be equal to the bit
// (checked, "MISMATCH" otherwise).
// Usage: bench_dom_cpu [hmm=examples/data/tutorial3.hmm] [lengths=100,400,1000] [repeat=5]
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_hmm_support.hpp"
#include "bench/bench_support.hpp"
#include "core/base/alphabet.hpp"
#include "core/hmmer/domains/dom_cpu.hpp"
#include "core/hmmer/domains/dom_decoding.hpp"
#include "core/hmmer/domains/dom_fwdback.hpp"
#include "core/hmmer/domains/dom_null2.hpp"
#include "core/hmmer/domains/dom_optacc.hpp"
#include "core/hmmer/domains/dom_stotrace.hpp"
#include "core/hmmer/domains/dom_engine.hpp"
#include "core/hmmer/fwd/fwd_cpu.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/profile.hpp"

using namespace warpdp;

namespace {

// Seconds per call: best of `repeat` samples of enough calls to take ~5 ms.
double per_call(int repeat, const std::function<void()>& f) {
    int n = 1;
    for (;;) {
        const double t = bench::best_seconds(1, [&] { for (int k = 0; k < n; ++k) f(); });
        if (t > 5e-3 || n > 1 << 20) break;
        n *= 2;
    }
    return bench::best_seconds(repeat, [&] { for (int k = 0; k < n; ++k) f(); }) / n;
}

bool same_bits(float a, float b) { return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b) || (std::isnan(a) && std::isnan(b)); }

// Every cell and special of two matrices of one shape, bit for bit.
bool same_matrix(const DomMatrix& a, const DomMatrix& b, bool with_scale = true) {
    if (a.M() != b.M() || a.L() != b.L() || a.full() != b.full()) return false;
    for (uint64_t i = 0; i <= a.L(); ++i) {
        for (int s = 0; s < kDomSpecials; ++s)
            if ((with_scale || s != kDomXScale) && !same_bits(a.x(i, DomSpecial(s)), b.x(i, DomSpecial(s)))) return false;
        if (!a.full() && i > 0) continue;
        for (int q = 0; q < a.Q(); ++q)
            for (DomCell c : {kDomM, kDomD, kDomI})
                for (int z = 0; z < kFwdLanes; ++z)
                    if (!same_bits(a.cell(i, q, c)[z], b.cell(i, q, c)[z])) return false;
    }
    return true;
}

bool same_hit(const DomHit& a, const DomHit& b) {
    if (!same_bits(a.score, b.score) || a.domains.size() != b.domains.size()) return false;
    for (size_t d = 0; d < a.domains.size(); ++d)
        if (!same_bits(a.domains[d].envsc, b.domains[d].envsc) || !same_bits(a.domains[d].oasc, b.domains[d].oasc) ||
            !same_bits(a.domains[d].bitscore, b.domains[d].bitscore) || a.domains[d].ienv != b.domains[d].ienv)
            return false;
    return true;
}

int mismatches = 0;

void row(int M, size_t L, const char* kernel, double t_ref, double t_vec, bool same) {
    const double cells = static_cast<double>(M) * static_cast<double>(L);
    char vec[64] = "-", rate[32] = "-", ratio[16] = "-";
    if (t_vec > 0) {
        std::snprintf(vec, sizeof vec, "%.4f", t_vec * 1e3);
        std::snprintf(rate, sizeof rate, "%.3f", cells / t_vec / 1e9);
        std::snprintf(ratio, sizeof ratio, "%.2fx", t_ref / t_vec);
    }
    std::printf("%5d %6zu %-16s %10.4f %10s %9.3f %9s %7s%s\n", M, L, kernel, t_ref * 1e3, vec, cells / t_ref / 1e9, rate,
                ratio, same ? "" : "  MISMATCH");
    mismatches += !same;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string path = argc > 1 ? argv[1] : "examples/data/tutorial3.hmm";
    const std::vector<uint64_t> lengths = bench::number_list(argc > 2 ? argv[2] : "100,400,1000");
    const int repeat = argc > 3 ? std::atoi(argv[3]) : 5;
    std::mt19937_64 g(20261207);
    const std::vector<Hmm> hmms = read_all_hmms(path);
    std::printf("# %s, one thread, best of %d; ms a call, Gcells/s (M x L)\n", path.c_str(), repeat);
    std::printf("%5s %6s %-16s %10s %10s %9s %9s %7s\n", "M", "L", "kernel", "ref ms", "vec ms", "ref Gc/s", "vec Gc/s",
                "ref/vec");
    for (const Hmm& h : hmms) {
        const FwdProfile fp = build_fwd_profile(build_profile(h));
        const int M = fp.M;
        for (uint64_t L : lengths) {
            const std::vector<uint8_t> dsq = bench::homolog(h, L, g);
            const DomSpecialOdds multi = dom_special_odds(L, true), uni = dom_special_odds(L, false);
            // The Forward filter's engine, one thread, on the same target:
            // the parser's arithmetic without a matrix to keep.
            {
                SeqBatch one;
                one.residues = dsq;
                one.close_record("t", "");
                auto engine = make_fwd_cpu_engine(1);
                std::vector<float> sc(1);
                row(M, L, "forward filter", per_call(repeat, [&] { engine->score(fp, one, sc); }), 0, true);
            }
            DomMatrix f1, f2, b1, b2;
            for (bool full : {false, true}) {
                const DomSpecialOdds& o = full ? uni : multi;
                const char* fname = full ? "forward full" : "forward parser";
                const char* bname = full ? "backward full" : "backward parser";
                float s1 = 0, s2 = 0;
                const double tf1 = per_call(repeat, [&] { s1 = dom_forward(fp, o, dsq, f1, full); });
                const double tf2 = per_call(repeat, [&] { s2 = dom_forward_cpu(fp, o, dsq, f2, full); });
                row(M, L, fname, tf1, tf2, same_bits(s1, s2) && same_matrix(f1, f2));
                const double tb1 = per_call(repeat, [&] { s1 = dom_backward(fp, o, dsq, f1, b1, full); });
                const double tb2 = per_call(repeat, [&] { s2 = dom_backward_cpu(fp, o, dsq, f1, b2, full); });
                row(M, L, bname, tb1, tb2, same_bits(s1, s2) && same_matrix(b1, b2));
            }
            // Full matrices with the unihit odds, as an envelope's rescoring has them.
            DomMatrix p1, p2, o1, o2;
            const double td1 = per_call(repeat, [&] { dom_decoding(uni, f1, b1, p1); });
            const double td2 = per_call(repeat, [&] { dom_decoding_cpu(uni, f1, b1, p2); });
            row(M, L, "decoding", td1, td2, same_matrix(p1, p2));
            float a1 = 0, a2 = 0;
            const DomKernels vk = dom_vector_kernels();
            const double to1 = per_call(repeat, [&] { a1 = dom_optimal_accuracy(fp, uni, p1, o1); });
            const double to2 = per_call(repeat, [&] { a2 = vk.optimal_accuracy(fp, uni, p1, o2); });
            row(M, L, "optimal accuracy", to1, to2, same_bits(a1, a2) && same_matrix(o1, o2, false));
            std::vector<float> n2;
            const double tn = per_call(repeat, [&] { n2 = dom_null2_by_expectation(fp, Alphabet::amino(), p1); });
            row(M, L, "null2 (expect.)", tn, 0, true);
            // One stochastic trace of the multihit full Forward matrix.
            dom_forward(fp, multi, dsq, f1, true);
            EaselRandom rng(EaselRandom::Kind::fast, 42);
            DomTrace tr;
            const double ts = per_call(repeat, [&] { dom_stochastic_trace(rng, fp, multi, f1, tr); });
            row(M, L, "stochastic trace", ts, 0, true);
            // The whole post-filter search of the target.
            const DomModel model{&h, &fp};
            const DomTarget target{"t", "", "", dsq, 0};
            const DomSettings settings;
            const std::vector<DomTarget> one{target};
            std::vector<DomResult> r1(1), r2(1);
            const auto e1 = make_dom_reference_engine(), e2 = make_dom_cpu_engine(1);
            const double te1 = per_call(repeat, [&] { e1->search(model, one, settings, r1); });
            const double te2 = per_call(repeat, [&] { e2->search(model, one, settings, r2); });
            const DomOutcome out1 = r1[0].outcome, out2 = r2[0].outcome;
            const DomHit &h1 = r1[0].hit, &h2 = r2[0].hit;
            row(M, L, out1 == DomOutcome::hit ? "search (hit)" : "search (no hit)", te1, te2,
                out1 == out2 && same_hit(h1, h2));
        }
    }
    if (mismatches) std::printf("MISMATCH: %d kernels differ between the forms\n", mismatches);
    return mismatches ? 1 : 0;
}
