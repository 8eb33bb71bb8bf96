// The optimized CPU Forward filter: HMMER's own striped layout, one target
// per 4-lane float vector (GCC vector types: SSE on x86-64), threads over
// targets, longest first. The FPU's flush-to-zero mode is switched on around
// each target, as hmmsearch runs with it, so results equal the reference's
// explicit flushing bit for bit; where no such mode is known the same
// flushing is done by hand.
#include "core/hmmer/fwd/fwd_cpu.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <thread>
#include <vector>

#include "core/base/flush_to_zero.hpp"
#include "core/base/parallel.hpp"
#include "core/hmmer/profile.hpp"


namespace warpdp {
namespace {

typedef float v4 __attribute__((vector_size(16)));


inline float fl(float v) { return kHardwareFtz ? v : flush_denormal(v); }
inline v4 fl(v4 v) {
    if constexpr (!kHardwareFtz)
        for (int z = 0; z < kFwdLanes; ++z) v[z] = flush_denormal(v[z]);
    return v;
}
inline v4 load(const float* p) {
    v4 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}
inline v4 shift(v4 a) { return v4{0.0f, a[0], a[1], a[2]}; }

struct Scratch {
    std::vector<v4> mx, dx, ix;
    std::vector<float> scales;
};

float forward(const FwdProfile& p, std::span<const uint8_t> dsq, Scratch& s) {
    const FlushToZero ftz;
    const int Q = p.Q;
    const uint64_t L = dsq.size();
    s.mx.assign(static_cast<size_t>(Q), v4{});
    s.dx.assign(static_cast<size_t>(Q), v4{});
    s.ix.assign(static_cast<size_t>(Q), v4{});
    s.scales.clear();
    v4* const Mx = s.mx.data();
    v4* const Dx = s.dx.data();
    v4* const Ix = s.ix.data();
    const float pmove = profile_pmove(L);
    const float ploop = 1.0f - pmove;
    float xN = 1.0f, xJ = 0.0f, xB = pmove, xC = 0.0f;
    const float* const tr = p.trans.data();
    const size_t tstride = kFwdNumTrans * kFwdLanes;
    for (uint8_t x : dsq) {
        const float* rp = p.e(x, 0);
        v4 dcv{}, xEv{};
        const v4 xBv{xB, xB, xB, xB};
        v4 mpv = shift(Mx[Q - 1]), dpv = shift(Dx[Q - 1]), ipv = shift(Ix[Q - 1]);
        for (int q = 0; q < Q; ++q) {
            const float* t = tr + static_cast<size_t>(q) * tstride;
            v4 sv = fl(xBv * load(t + kFBM * kFwdLanes));
            sv = fl(sv + fl(mpv * load(t + kFMM * kFwdLanes)));
            sv = fl(sv + fl(ipv * load(t + kFIM * kFwdLanes)));
            sv = fl(sv + fl(dpv * load(t + kFDM * kFwdLanes)));
            sv = fl(sv * load(rp + static_cast<size_t>(q) * kFwdLanes));
            xEv = fl(xEv + sv);
            mpv = Mx[q];
            dpv = Dx[q];
            ipv = Ix[q];
            Mx[q] = sv;
            Dx[q] = dcv;
            dcv = fl(sv * load(t + kFMD * kFwdLanes));
            Ix[q] = fl(fl(mpv * load(t + kFMI * kFwdLanes)) + fl(ipv * load(t + kFII * kFwdLanes)));
        }
        dcv = shift(dcv);
        Dx[0] = v4{};
        for (int q = 0; q < Q; ++q) {
            Dx[q] = fl(dcv + Dx[q]);
            dcv = fl(Dx[q] * load(tr + static_cast<size_t>(q) * tstride + kFDD * kFwdLanes));
        }
        for (int pass = 1; pass < kFwdLanes; ++pass) {
            dcv = shift(dcv);
            auto changed = v4{} < v4{};  // all false
            for (int q = 0; q < Q; ++q) {
                const v4 sv = fl(dcv + Dx[q]);
                changed |= sv > Dx[q];
                Dx[q] = sv;
                dcv = fl(dcv * load(tr + static_cast<size_t>(q) * tstride + kFDD * kFwdLanes));
            }
            if (p.M >= 100 && !(changed[0] | changed[1] | changed[2] | changed[3])) break;
        }
        for (int q = 0; q < Q; ++q) xEv = fl(Dx[q] + xEv);
        const float xE = fl(fl(xEv[0] + xEv[1]) + fl(xEv[2] + xEv[3]));
        xN = fl(xN * ploop);
        xC = fl(fl(xC * ploop) + fl(xE * 0.5f));
        xJ = fl(fl(xJ * ploop) + fl(xE * 0.5f));
        xB = fl(fl(xJ * pmove) + fl(xN * pmove));
        if (xE > 1.0e4f) {
            xN = fl(xN / xE);
            xC = fl(xC / xE);
            xJ = fl(xJ / xE);
            xB = fl(xB / xE);
            const float r = static_cast<float>(1.0 / static_cast<double>(xE));
            const v4 rv{r, r, r, r};
            for (int q = 0; q < Q; ++q) {
                Mx[q] = fl(Mx[q] * rv);
                Dx[q] = fl(Dx[q] * rv);
                Ix[q] = fl(Ix[q] * rv);
            }
            s.scales.push_back(xE);
        }
    }
    return fwd_finish(s.scales, xC, L);
}

class FwdCpuEngine final : public FwdEngine {
public:
    explicit FwdCpuEngine(unsigned threads)
        : threads_(threads ? threads : std::max(1u, std::thread::hardware_concurrency())) {}
    std::string name() const override { return "cpu-striped4"; }
    // Every (job, target) pair in one pool, the most cells first.
    void score_many(std::span<const FwdJob> jobs) override {
        std::vector<std::pair<uint32_t, uint32_t>> order;
        for (size_t i = 0; i < jobs.size(); ++i)
            for (size_t j = 0; j < jobs[i].targets->size(); ++j) order.emplace_back(i, j);
        const auto cells = [&](const std::pair<uint32_t, uint32_t>& p) {
            return jobs[p.first].targets->length(p.second) * static_cast<uint64_t>(jobs[p.first].profile->M);
        };
        std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) { return cells(a) > cells(b); });
        scratch_.resize(parallel_workers(order.size(), threads_, 1));
        parallel_for_workers(order.size(), threads_, 1, [&](unsigned w, size_t k) {
            const FwdJob& job = jobs[order[k].first];
            job.out[order[k].second] = forward(*job.profile, job.targets->seq(order[k].second), scratch_[w]);
        });
    }

private:
    unsigned threads_;
    std::vector<Scratch> scratch_;
};

}  // namespace

std::unique_ptr<FwdEngine> make_fwd_cpu_engine(unsigned threads) { return std::make_unique<FwdCpuEngine>(threads); }

}  // namespace warpdp
