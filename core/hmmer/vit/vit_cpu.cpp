// Variant table, striped-profile builder, per-model scorer and the threaded
// CPU engine of the Viterbi filter. The kernels themselves live in
// vit_cpu_{sse2,avx2}.cpp; this file holds everything that is plain C++.
#include "core/hmmer/vit/vit_cpu.hpp"

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "core/base/parallel.hpp"

namespace warpdp {

// Defined in the per-instruction-set files.
uint32_t vit_score_sse2(const int16_t* trans, const int16_t* emit, int Q, int16_t* rows, const uint8_t* dsq,
                        uint64_t L, int ncj);
uint32_t vit_score_avx2(const int16_t* trans, const int16_t* emit, int Q, int16_t* rows, const uint8_t* dsq,
                        uint64_t L, int ncj);

namespace {

using KernelFn = uint32_t (*)(const int16_t*, const int16_t*, int, int16_t*, const uint8_t*, uint64_t, int);

struct VariantInfo {
    VitCpuVariant v;
    const char* name;
    int lanes;
    KernelFn fn;
};

#if defined(__x86_64__)
constexpr VariantInfo kVariants[] = {
    {VitCpuVariant::sse2, "sse2", 8, vit_score_sse2},
    {VitCpuVariant::avx2, "avx2", 16, vit_score_avx2},
};
#else
constexpr VariantInfo kVariants[] = {
    {VitCpuVariant::sse2, "sse2", 8, nullptr},
    {VitCpuVariant::avx2, "avx2", 16, nullptr},
};
#endif

const VariantInfo& info(VitCpuVariant v) { return kVariants[static_cast<int>(v)]; }

}  // namespace

const char* vit_cpu_variant_name(VitCpuVariant v) { return info(v).name; }

bool vit_cpu_variant_available(VitCpuVariant v) {
#if defined(__x86_64__)
    switch (v) {
        case VitCpuVariant::sse2: return true;  // x86-64 baseline
        case VitCpuVariant::avx2: return __builtin_cpu_supports("avx2");
    }
#endif
    (void)v;
    return false;
}

VitCpuVariant vit_cpu_best_variant() {
    return vit_cpu_variant_available(VitCpuVariant::avx2) ? VitCpuVariant::avx2 : VitCpuVariant::sse2;
}

std::vector<VitCpuVariant> vit_cpu_available_variants() {
    std::vector<VitCpuVariant> out;
    for (const auto& vi : kVariants)
        if (vit_cpu_variant_available(vi.v)) out.push_back(vi.v);
    return out;
}

VitStripedProfile build_vit_striped(const VitWordProfile& p, int lanes) {
    VitStripedProfile s;
    s.M = p.M;
    s.W = lanes;
    s.Kp = p.Kp;
    s.Q = std::max(1, (p.M + lanes - 1) / lanes);
    const size_t QW = static_cast<size_t>(s.Q) * static_cast<size_t>(lanes);
    s.trans.assign(QW * kVitNumTrans, kWordNegInf);
    s.emit.assign(QW * static_cast<size_t>(p.Kp), kWordNegInf);
    for (int k = 1; k <= p.M; ++k) {
        const auto q = static_cast<size_t>((k - 1) % s.Q);
        const auto z = static_cast<size_t>((k - 1) / s.Q);
        for (int slot = 0; slot < kVitNumTrans; ++slot)
            s.trans[(q * kVitNumTrans + static_cast<size_t>(slot)) * static_cast<size_t>(lanes) + z] =
                p.t(k, static_cast<VitTrans>(slot));
        for (int x = 0; x < p.Kp; ++x)
            s.emit[static_cast<size_t>(x) * QW + q * static_cast<size_t>(lanes) + z] = p.e(x, k);
    }
    return s;
}

VitCpuScorer::VitCpuScorer(VitCpuVariant v, const VitWordProfile& p) : variant_(v) {
    if (!vit_cpu_variant_available(v))
        throw std::runtime_error(std::string("Viterbi CPU variant not available on this CPU: ") + info(v).name);
    sp_ = build_vit_striped(p, info(v).lanes);
    rows_.assign(3 * static_cast<size_t>(sp_.Q) * static_cast<size_t>(sp_.W), kWordNegInf);
}

uint32_t VitCpuScorer::score(std::span<const uint8_t> dsq) {
    return info(variant_).fn(sp_.trans.data(), sp_.emit.data(), sp_.Q, rows_.data(), dsq.data(), dsq.size(),
                             vit_ncj_move(dsq.size()));
}

namespace {

class VitCpuEngine final : public VitEngine {
public:
    VitCpuEngine(unsigned threads, VitCpuVariant v) : variant_(v) {
        if (!vit_cpu_variant_available(v))
            throw std::runtime_error(std::string("Viterbi CPU variant not available on this CPU: ") + info(v).name);
        threads_ = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    }
    std::string name() const override { return std::string("cpu-") + info(variant_).name; }
    void load_targets(const SeqBatch& targets) override { targets_ = &targets; }

    void score(const VitWordProfile& profile, std::span<const uint32_t> which, std::span<uint32_t> out) override {
        if (out.size() < which.size()) throw std::invalid_argument("VitEngine::score: output span too short");
        if (which.empty()) return;
        if (!targets_) throw std::logic_error("VitEngine::score: no targets loaded");
        const VariantInfo& vi = info(variant_);
        const VitStripedProfile sp = build_vit_striped(profile, vi.lanes);
        const size_t row_len = 3 * static_cast<size_t>(sp.Q) * static_cast<size_t>(sp.W);
        // Targets are handed out a few at a time; each result depends only on
        // its own target, so the schedule cannot change the output.
        constexpr size_t kChunk = 4;
        const unsigned nt = parallel_workers(which.size(), threads_, kChunk);
        if (scratch_.size() < nt) scratch_.resize(nt);
        for (unsigned id = 0; id < nt; ++id)
            if (scratch_[id].size() < row_len) scratch_[id].resize(row_len);
        parallel_for_workers(which.size(), threads_, kChunk, [&](unsigned w, size_t j) {
            const auto dsq = targets_->seq(which[j]);
            out[j] = vi.fn(sp.trans.data(), sp.emit.data(), sp.Q, scratch_[w].data(), dsq.data(), dsq.size(),
                           vit_ncj_move(dsq.size()));
        });
    }

private:
    VitCpuVariant variant_;
    unsigned threads_ = 1;
    const SeqBatch* targets_ = nullptr;
    std::vector<VitWords> scratch_;  // per worker, kept across calls
};

}  // namespace

std::unique_ptr<VitEngine> make_vit_cpu_engine_variant(unsigned threads, VitCpuVariant v) {
    return std::make_unique<VitCpuEngine>(threads, v);
}

std::unique_ptr<VitEngine> make_vit_cpu_engine(unsigned threads) {
    return make_vit_cpu_engine_variant(threads, vit_cpu_best_variant());
}

}  // namespace warpdp
