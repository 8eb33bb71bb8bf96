// Variant table, striped-profile builders, the per-query scorer and the
// threaded CPU engine of gpu-sw. The kernels themselves live in
// sw_striped_{base,sse2,avx2}.cpp; this file holds the plain C++ around them.
#include "core/sw/sw_cpu.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>

#include "core/base/errors.hpp"
#include "core/base/parallel.hpp"
#include "core/sw/sw_striped_kernels.hpp"

namespace warpdp {

namespace {

constexpr SwCpuVariant kVariants[] = {
#if defined(__x86_64__)
    {"sw_striped_avx2", CpuIsa::avx2,
     {16, sw_striped::striped_i16_avx2, 8, sw_striped::striped_i32_avx2, sw_striped::striped_end_i16_avx2,
      sw_striped::striped_end_i32_avx2}},
    {"sw_striped_sse2", CpuIsa::sse2,
     {8, sw_striped::striped_i16_sse2, 4, sw_striped::striped_i32_sse2, sw_striped::striped_end_i16_sse2,
      sw_striped::striped_end_i32_sse2}},
#endif
    {"sw_striped_base", CpuIsa::base,
     {0, nullptr, 1, sw_striped::striped_i32_base, nullptr, sw_striped::striped_end_i32_base}},
};

template <class T>
SwStripedProfile<T> build_profile(std::span<const uint8_t> query, const SwMatrix& m, int lanes, bool transposed) {
    SwStripedProfile<T> p;
    p.lanes = lanes;
    p.seg_len = std::max<int>(1, static_cast<int>((query.size() + static_cast<size_t>(lanes) - 1) / static_cast<size_t>(lanes)));
    const size_t Q = static_cast<size_t>(p.seg_len), W = static_cast<size_t>(lanes);
    p.values.assign(static_cast<size_t>(m.size()) * Q * W, T{0});
    for (int code = 0; code < m.size(); ++code) {
        T* row = p.values.data() + static_cast<size_t>(code) * Q * W;
        for (size_t i = 0; i < query.size(); ++i)
            row[(i % Q) * W + i / Q] = static_cast<T>(transposed ? m.score(code, query[i]) : m.score(query[i], code));
    }
    return p;
}

}  // namespace

std::span<const SwCpuVariant> sw_cpu_variants() { return kVariants; }

SwStripedProfile<int16_t> build_sw_profile_i16(std::span<const uint8_t> query, const SwMatrix& m, int lanes,
                                               bool transposed) {
    return build_profile<int16_t>(query, m, lanes, transposed);
}

SwStripedProfile<int32_t> build_sw_profile_i32(std::span<const uint8_t> query, const SwMatrix& m, int lanes,
                                               bool transposed) {
    return build_profile<int32_t>(query, m, lanes, transposed);
}

SwEnd sw_find_end(const SwCpuVariant& v, std::span<const uint8_t> a, std::span<const uint8_t> b, const SwScoring& sc,
                  bool transposed) {
    require_supported(v);
    SwEnd e;
    if (a.empty() || b.empty()) return e;
    if (v.kernels.lanes16 > 0) {
        const auto p = build_sw_profile_i16(a, *sc.matrix, v.kernels.lanes16, transposed);
        std::vector<int16_t, AlignedAlloc<int16_t>> scratch(4 * static_cast<size_t>(p.seg_len) * static_cast<size_t>(p.lanes));
        const int32_t s = v.kernels.end_i16(p.values.data(), p.seg_len, b.data(), b.size(), sc.gap_open, sc.gap_extend,
                                            scratch.data(), &e.i, &e.j);
        if (s < kSwInt16Ceiling) {  // no lane saturated: every value, and so the end, is exact
            e.score = s;
            return e;
        }
        e = SwEnd{};
    }
    const auto p = build_sw_profile_i32(a, *sc.matrix, v.kernels.lanes32, transposed);
    std::vector<int32_t, AlignedAlloc<int32_t>> scratch(4 * static_cast<size_t>(p.seg_len) * static_cast<size_t>(p.lanes));
    e.score = v.kernels.end_i32(p.values.data(), p.seg_len, b.data(), b.size(), sc.gap_open, sc.gap_extend,
                                scratch.data(), &e.i, &e.j);
    return e;
}

SwCpuScorer::SwCpuScorer(const SwCpuVariant& v, std::span<const uint8_t> query, const SwScoring& scoring)
    : v_(v), query_(query), sc_(scoring) {
    require_supported(v);
    if (v_.kernels.lanes16 > 0) {
        p16_ = build_sw_profile_i16(query, *scoring.matrix, v_.kernels.lanes16);
        s16_.assign(3 * static_cast<size_t>(p16_.seg_len) * static_cast<size_t>(p16_.lanes), 0);
    }
}

int32_t SwCpuScorer::score(std::span<const uint8_t> target, bool* recomputed, bool force_i32) {
    if (recomputed) *recomputed = false;
    if (query_.empty() || target.empty()) return 0;
    if (v_.kernels.lanes16 > 0 && !force_i32) {
        const int32_t s = v_.kernels.i16(p16_.values.data(), p16_.seg_len, target.data(), target.size(), sc_.gap_open,
                                         sc_.gap_extend, s16_.data());
        if (s < kSwInt16Ceiling) return s;
        if (recomputed) *recomputed = true;
    }
    if (p32_.values.empty()) {
        p32_ = build_sw_profile_i32(query_, *sc_.matrix, v_.kernels.lanes32);
        s32_.assign(3 * static_cast<size_t>(p32_.seg_len) * static_cast<size_t>(p32_.lanes), 0);
    }
    return v_.kernels.i32(p32_.values.data(), p32_.seg_len, target.data(), target.size(), sc_.gap_open,
                          sc_.gap_extend, s32_.data());
}

namespace {

class SwCpuEngine final : public SwEngine {
public:
    SwCpuEngine(const SwCpuOptions& opt, const SwCpuVariant& v) : opt_(opt), v_(v) { require_supported(v); }
    std::string name() const override { return std::string("cpu:") + v_.name; }

    void load(const SeqBatch& targets, const SwScoring& scoring) override {
        check_sw_load(targets, scoring);
        targets_ = &targets;
        scoring_ = scoring;
    }

    void score(std::span<const uint8_t> query, std::span<int32_t> scores) override {
        check_sw_score_call(targets_ != nullptr, targets_ ? targets_->size() : 0, query, scores.size());
        const auto t0 = std::chrono::steady_clock::now();
        // Blocks of targets small enough to balance the threads, large enough
        // that the counter is rarely touched.
        constexpr size_t kGrain = 16;
        const size_t n = targets_->size();
        const unsigned workers = parallel_workers(n, opt_.threads, kGrain);
        std::vector<std::unique_ptr<SwCpuScorer>> scorers(workers);
        std::atomic<uint64_t> redone{0};
        parallel_for_workers(n, opt_.threads, kGrain, [&](unsigned w, size_t t) {
            if (!scorers[w]) scorers[w] = std::make_unique<SwCpuScorer>(v_, query, scoring_);
            bool r = false;
            scores[t] = scorers[w]->score(targets_->seq(t), &r, opt_.force_i32);
            if (r) redone.fetch_add(1, std::memory_order_relaxed);
        });
        stats_.cells = query.size() * targets_->total_residues();
        stats_.recomputed = redone.load();
        stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    SwEngineStats last_stats() const override { return stats_; }

private:
    SwCpuOptions opt_;
    SwCpuVariant v_;
    const SeqBatch* targets_ = nullptr;
    SwScoring scoring_;
    SwEngineStats stats_;
};

}  // namespace

std::unique_ptr<SwEngine> make_sw_cpu_engine(unsigned threads) {
    SwCpuOptions opt;
    opt.threads = threads;
    return make_sw_cpu_engine(opt, choose_variant<sw_cpu_variants>());
}

std::unique_ptr<SwEngine> make_sw_cpu_engine(const SwCpuOptions& opt, const SwCpuVariant& v) {
    return std::make_unique<SwCpuEngine>(opt, v);
}

}  // namespace warpdp
