// Variant table, striped-profile builder, per-model scorer and the threaded
// CPU engine of the Viterbi filter. The kernels themselves live in
// vit_striped_{sse2,avx2}_i16.cpp; this file holds everything that is plain C++.
#include "core/hmmer/vit/vit_cpu.hpp"

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "core/base/parallel.hpp"
#include "core/hmmer/vit/vit_striped_kernels.hpp"

namespace warpdp {

namespace {

#if defined(__x86_64__)
constexpr VitCpuVariant kVariants[] = {
    {"vit_striped_avx2_i16", CpuIsa::avx2, {16, vit_striped::score_avx2}},
    {"vit_striped_sse2_i16", CpuIsa::sse2, {8, vit_striped::score_sse2}},
};
#endif

}  // namespace

std::span<const VitCpuVariant> vit_cpu_variants() {
#if defined(__x86_64__)
    return kVariants;
#else
    return {};
#endif
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

VitCpuScorer::VitCpuScorer(const VitCpuVariant& v, const VitWordProfile& p) : variant_(v) {
    require_supported(v);
    sp_ = build_vit_striped(p, v.kernels.lanes);
    rows_.assign(3 * static_cast<size_t>(sp_.Q) * static_cast<size_t>(sp_.W), kWordNegInf);
}

uint32_t VitCpuScorer::score(std::span<const uint8_t> dsq) {
    return variant_.kernels.score(sp_.trans.data(), sp_.emit.data(), sp_.Q, rows_.data(), dsq.data(), dsq.size(),
                                  vit_ncj_move(dsq.size()));
}

namespace {

class VitCpuEngine final : public VitEngine {
public:
    VitCpuEngine(unsigned threads, const VitCpuVariant& v) : variant_(v) {
        require_supported(v);
        threads_ = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    }
    std::string name() const override { return std::string("cpu-") + cpu_isa_name(variant_.isa); }
    void load_targets(const SeqBatch& targets) override { targets_ = &targets; }

    void score(const VitWordProfile& profile, std::span<const uint32_t> which, std::span<uint32_t> out) override {
        if (out.size() < which.size()) throw std::invalid_argument("VitEngine::score: output span too short");
        if (which.empty()) return;
        if (!targets_) throw std::logic_error("VitEngine::score: no targets loaded");
        const VitCpuKernels& k = variant_.kernels;
        const VitStripedProfile sp = build_vit_striped(profile, k.lanes);
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
            out[j] = k.score(sp.trans.data(), sp.emit.data(), sp.Q, scratch_[w].data(), dsq.data(), dsq.size(),
                             vit_ncj_move(dsq.size()));
        });
    }

private:
    VitCpuVariant variant_;  // a copy: the caller's need not outlive the engine
    unsigned threads_ = 1;
    const SeqBatch* targets_ = nullptr;
    std::vector<VitWords> scratch_;  // per worker, kept across calls
};

}  // namespace

std::unique_ptr<VitEngine> make_vit_cpu_engine(unsigned threads, const VitCpuVariant& v) {
    return std::make_unique<VitCpuEngine>(threads, v);
}

std::unique_ptr<VitEngine> make_vit_cpu_engine(unsigned threads) {
    return make_vit_cpu_engine(threads, choose_variant<vit_cpu_variants>());
}

}  // namespace warpdp
