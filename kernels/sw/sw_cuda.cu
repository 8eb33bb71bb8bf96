// The CUDA engine of gpu-sw (kernels/sw/sw_cuda.hpp, docs/sw.md): load()
// sorts the chunk's non-empty targets longest first, shares them between
// the devices (longest-processing-time rule, kernels/common/
// resident_targets.hpp), pairs neighbours of that order (a group of lanes
// aligns two targets at once, sw_kernels.cuh) and uploads residues, offsets
// and lengths once; they stay resident for every query until the next
// load(). score() uploads the query and runs one launch per device over
// every pair, with the configuration (lanes per group x query rows per lane)
// that kConfigs, the one table, gives for the query's length; then the
// targets whose 16-bit best came near the top of the range again with
// 32-bit cells; then it scatters the scores back to input order. Every
// configuration computes the same integers, so results never depend on it,
// on the devices or on the split.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/base/errors.hpp"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/forced_variant.hpp"
#include "kernels/common/resident_targets.hpp"
#include "kernels/sw/sw_cuda.hpp"
#include "kernels/sw/sw_kernels.cuh"

namespace warpdp {
namespace {

using namespace warpdp::cuda;

using KernelFn = void (*)(SwLaunchParams);

struct SwConfig {
    const char* name;
    bool wide;    // 32-bit cells
    int G, R;     // lanes per pair, query rows per lane
    int threads;  // per block
    KernelFn kernel;
    uint32_t rows() const { return static_cast<uint32_t>(G * R); }
};

// The one table of kernel configurations, 16-bit ones by rows per pass.
// A query takes the first whose G * R rows hold it in one pass; longer ones
// the 32-lane configuration with the fewest rows over all passes (ties: the
// wider). Narrow groups for short queries: each pair costs a group G - 1
// steps of filling its wavefront, and short queries leave little work per
// column to spread the profile's writing over. Configurations of 28 and more
// rows a lane (over 128 registers) and groups of 8 (whose rings take more
// shared memory a lane) run 128-thread blocks, so that several blocks share
// a multiprocessor. The last entry recomputes the targets whose 16-bit best
// may have overflowed. The last parameter caps registers so that two
// 256-thread blocks share a multiprocessor where the compiler would
// otherwise take a few more than half of them.
const SwConfig kConfigs[] = {
    {"s16_g8_r8", false, 8, 8, 128, sw_kernel<SwCell16, 8, 8, 128, 1>},
    {"s16_g8_r12", false, 8, 12, 128, sw_kernel<SwCell16, 8, 12, 128, 1>},
    {"s16_g8_r16", false, 8, 16, 128, sw_kernel<SwCell16, 8, 16, 128, 1>},
    {"s16_g8_r20", false, 8, 20, 128, sw_kernel<SwCell16, 8, 20, 128, 1>},
    {"s16_g8_r24", false, 8, 24, 128, sw_kernel<SwCell16, 8, 24, 128, 1>},
    {"s16_g8_r32", false, 8, 32, 128, sw_kernel<SwCell16, 8, 32, 128, 1>},
    {"s16_g16_r20", false, 16, 20, 256, sw_kernel<SwCell16, 16, 20, 256, 1>},
    {"s16_g16_r24", false, 16, 24, 256, sw_kernel<SwCell16, 16, 24, 256, 2>},
    {"s16_g16_r28", false, 16, 28, 128, sw_kernel<SwCell16, 16, 28, 128, 1>},
    {"s16_g16_r32", false, 16, 32, 128, sw_kernel<SwCell16, 16, 32, 128, 1>},
    {"s16_g32_r18", false, 32, 18, 256, sw_kernel<SwCell16, 32, 18, 256, 1>},
    {"s16_g32_r20", false, 32, 20, 256, sw_kernel<SwCell16, 32, 20, 256, 1>},
    {"s16_g32_r22", false, 32, 22, 256, sw_kernel<SwCell16, 32, 22, 256, 2>},
    {"s16_g32_r24", false, 32, 24, 256, sw_kernel<SwCell16, 32, 24, 256, 2>},
    {"s16_g32_r28", false, 32, 28, 128, sw_kernel<SwCell16, 32, 28, 128, 1>},
    {"s16_g32_r32", false, 32, 32, 128, sw_kernel<SwCell16, 32, 32, 128, 1>},
    {"s32_g32_r16", true, 32, 16, 128, sw_kernel<SwCell32, 32, 16, 128, 1>},
};
constexpr int kNumConfigs = static_cast<int>(sizeof(kConfigs) / sizeof(kConfigs[0]));
constexpr int kWide = kNumConfigs - 1;

// The default configuration for a query of m residues.
int choose_config(uint64_t m) {
    for (int c = 0; c < kWide; ++c)
        if (m <= kConfigs[c].rows()) return c;
    int best = -1;
    uint64_t best_rows = 0;
    for (int c = 0; c < kWide; ++c) {
        if (kConfigs[c].G != 32) continue;
        const uint64_t w = kConfigs[c].rows(), rows = (m + w - 1) / w * w;
        if (best < 0 || rows <= best_rows) best = c, best_rows = rows;
    }
    return best;
}

// Left free on a device: the context, the kernels' stacks.
constexpr uint64_t kDeviceReserve = uint64_t{512} << 20;
// Boundary slots of multi-pass launches take at most this share of the
// memory free after the database (very long targets get fewer groups).
constexpr double kBoundaryShare = 0.5;

std::string gib(uint64_t bytes) {
    char s[32];
    std::snprintf(s, sizeof s, "%.2f GiB", static_cast<double>(bytes) / double(uint64_t{1} << 30));
    return s;
}

struct Slot {
    int device = 0;
    cudaDeviceProp prop{};
    std::unique_ptr<Stream> stream;
    int blocks_per_sm[kNumConfigs] = {};  // occupancy at the loaded alphabet
    // Resident chunk (resident order: longest first).
    std::vector<uint32_t> which;  // input index of each resident target
    std::vector<uint32_t> lengths;
    DeviceBuffer<uint8_t> residues;
    DeviceBuffer<uint64_t> offset;
    DeviceBuffer<uint32_t> length, pair, overflow, counters;  // counters: overflow count, two pair counters
    DeviceBuffer<int32_t> score;
    DeviceBuffer<uint32_t> matrix;
    DeviceBuffer<uint8_t> query, boundary;
    PinnedBuffer<int32_t> score_host;
    PinnedBuffer<uint32_t> count_host;
    uint64_t recomputed = 0;
};

class CudaSwEngine final : public SwCudaEngine {
public:
    explicit CudaSwEngine(const std::vector<int>& devices) {
        const auto props = open_devices(devices, "gpu-sw");
        for (size_t k = 0; k < devices.size(); ++k) {
            DeviceGuard guard(devices[k]);
            auto s = std::make_unique<Slot>();
            s->device = devices[k];
            s->prop = props[k];
            s->stream = std::make_unique<Stream>();
            s->counters.reset(4);
            s->count_host.reserve(4);
            slots_.push_back(std::move(s));
        }
    }

    std::string name() const override { return "cuda-x" + std::to_string(slots_.size()); }
    SwEngineStats last_stats() const override { return stats_; }

    void force_variant(const std::string& name) override {
        forced_ = forced_variant_index(kConfigs, name, "gpu-sw CUDA kernel configuration");
    }

    void load(const SeqBatch& targets, const SwScoring& scoring) override;
    void score(std::span<const uint8_t> query, std::span<int32_t> scores) override;

private:
    void load_slot(Slot& s, const SeqBatch& targets, std::vector<uint32_t> which);
    void run_slot(Slot& s, std::span<const uint8_t> query);

    std::vector<std::unique_ptr<Slot>> slots_;
    std::vector<uint32_t> matrix_;  // alphabet^2: s(q, c) at c * alphabet + q, as uint16
    int alphabet_ = 0, gap_open_ = 11, gap_extend_ = 1, overflow_at_ = 0;
    size_t loaded_ = 0;
    bool have_load_ = false;
    SwEngineStats stats_;
    int forced_ = -1;
};

void CudaSwEngine::load(const SeqBatch& targets, const SwScoring& scoring) {
    check_sw_load(targets, scoring);
    const SwMatrix& mx = *scoring.matrix;
    if (mx.size() < 1 || mx.size() + 1 > kSwMaxAlphabet)
        throw UsageError("gpu-sw CUDA engine: a matrix of " + std::to_string(mx.size()) + " letters (at most " +
                         std::to_string(kSwMaxAlphabet - 1) + ")");
    // 16-bit lanes stay exact for these bounds (sw_kernels.cuh); the checks
    // of core/sw keep every matrix and gap cost far inside them.
    if (std::max(mx.max_entry(), -mx.min_entry()) > kSw16MaxScore || scoring.gap_open + scoring.gap_extend > kSw16MaxGap)
        throw UsageError("gpu-sw CUDA engine: scores or gap costs beyond " + std::to_string(kSw16MaxScore));
    alphabet_ = mx.size() + 1;
    gap_open_ = scoring.gap_open;
    gap_extend_ = scoring.gap_extend;
    // A 16-bit best at or above this may hide a wrapped sum (sw_kernels.cuh).
    overflow_at_ = 32768 - std::max(1, mx.max_entry());
    const int pad = alphabet_ - 1;
    matrix_.assign(static_cast<size_t>(alphabet_) * alphabet_, 0);
    for (int c = 0; c < alphabet_; ++c)
        for (int q = 0; q < alphabet_; ++q)
            matrix_[static_cast<size_t>(c) * alphabet_ + q] =
                static_cast<uint16_t>(static_cast<int16_t>(q == pad || c == pad ? kSwPadScore : mx.score(q, c)));

    // Empty targets score 0 on the host; the rest are shared between devices.
    auto parts = split_longest_first(targets, slots_.size());
    for (auto& part : parts) {
        while (!part.empty() && targets.length(part.back()) == 0) part.pop_back();  // longest first: empties last
    }
    have_load_ = false;  // until every device holds its share
    if (slots_.size() == 1) {
        load_slot(*slots_[0], targets, std::move(parts[0]));
        loaded_ = targets.size();
        have_load_ = true;
        return;
    }
    std::vector<std::exception_ptr> errors(slots_.size());
    std::vector<std::thread> threads;
    for (size_t d = 0; d < slots_.size(); ++d)
        threads.emplace_back([&, d] {
            try {
                load_slot(*slots_[d], targets, std::move(parts[d]));
            } catch (...) {
                errors[d] = std::current_exception();
            }
        });
    for (auto& t : threads) t.join();
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
    loaded_ = targets.size();
    have_load_ = true;
}

void CudaSwEngine::load_slot(Slot& s, const SeqBatch& targets, std::vector<uint32_t> which) {
    DeviceGuard guard(s.device);
    PackedLayout layout = pack_layout(targets, which, 1, 0);  // kernels read bytes, in bounds
    const size_t n = which.size();
    const size_t pairs = (n + 1) / 2;
    // The previous chunk goes first; this one must fit with room for the
    // per-query buffers.
    s.residues.reset(0);
    s.offset.reset(0);
    s.length.reset(0);
    s.pair.reset(0);
    s.score.reset(0);
    s.overflow.reset(0);
    size_t free_bytes = 0, total_bytes = 0;
    WARPDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const uint64_t need = layout.bytes + n * (8 + 4 + 4 + 4 + 4) + kDeviceReserve;
    if (need > free_bytes)
        throw ResourceError("the database chunk of " + std::to_string(targets.total_residues()) + " residues needs " +
                            gib(need) + " on GPU " + std::to_string(s.device) + ", " + gib(free_bytes) +
                            " free: give gpu-sw smaller chunks");
    {
        StagingBuffer staging;
        staging.reserve(layout.bytes);
        pack_residues(targets, which, layout, 0, staging.get());
        s.residues.reset(layout.bytes);
        WARPDP_CUDA_CHECK(cudaMemcpy(s.residues.get(), staging.get(), layout.bytes, cudaMemcpyHostToDevice));
    }
    s.offset.reset(std::max<size_t>(n, 1));
    s.length.reset(std::max<size_t>(n, 1));
    s.pair.reset(std::max<size_t>(2 * pairs, 2));
    s.score.reset(std::max<size_t>(n, 1));
    s.overflow.reset(n + 2);
    if (n) {
        WARPDP_CUDA_CHECK(cudaMemcpy(s.offset.get(), layout.off.data(), n * 8, cudaMemcpyHostToDevice));
        WARPDP_CUDA_CHECK(cudaMemcpy(s.length.get(), layout.len.data(), n * 4, cudaMemcpyHostToDevice));
        std::vector<uint32_t> pair(2 * pairs);
        for (size_t k = 0; k < 2 * pairs; ++k) pair[k] = k < n ? static_cast<uint32_t>(k) : kSwNoTarget;
        WARPDP_CUDA_CHECK(cudaMemcpy(s.pair.get(), pair.data(), pair.size() * 4, cudaMemcpyHostToDevice));
    }
    s.matrix.reset(matrix_.size());
    WARPDP_CUDA_CHECK(cudaMemcpy(s.matrix.get(), matrix_.data(), matrix_.size() * 4, cudaMemcpyHostToDevice));
    for (int c = 0; c < kNumConfigs; ++c) {
        const SwConfig& k = kConfigs[c];
        const int smem = sw_smem_words(alphabet_, k.G, k.threads) * 4;
        if (static_cast<size_t>(smem) > s.prop.sharedMemPerBlockOptin)
            throw ResourceError(std::string("gpu-sw CUDA kernel ") + k.name + " needs " + std::to_string(smem) +
                                " bytes of shared memory with a " + std::to_string(alphabet_ - 1) + "-letter matrix, GPU " +
                                std::to_string(s.device) + " has " + std::to_string(s.prop.sharedMemPerBlockOptin));
        WARPDP_CUDA_CHECK(cudaFuncSetAttribute(k.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        WARPDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&s.blocks_per_sm[c], k.kernel, k.threads, smem));
        if (s.blocks_per_sm[c] < 1)
            throw ResourceError(std::string("gpu-sw CUDA kernel ") + k.name + " does not fit GPU " +
                                std::to_string(s.device) + " with a " + std::to_string(alphabet_ - 1) + "-letter matrix");
    }
    s.score_host.reserve(std::max<size_t>(n, 1));
    s.lengths = std::move(layout.len);
    s.which = std::move(which);
}

void CudaSwEngine::run_slot(Slot& s, std::span<const uint8_t> query) {
    DeviceGuard guard(s.device);
    s.recomputed = 0;
    const size_t n = s.which.size();
    if (n == 0) return;
    const uint32_t m = static_cast<uint32_t>(query.size());
    const uint32_t pairs = static_cast<uint32_t>((n + 1) / 2);
    cudaStream_t st = s.stream->get();

    s.query.reserve(query.size());
    WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.query.get(), query.data(), query.size(), cudaMemcpyHostToDevice, st));
    WARPDP_CUDA_CHECK(cudaMemsetAsync(s.counters.get(), 0, 4 * sizeof(uint32_t), st));
    WARPDP_CUDA_CHECK(cudaMemsetAsync(s.overflow.get(), 0xff, s.overflow.size() * sizeof(uint32_t), st));

    SwLaunchParams base;
    base.residues = s.residues.get();
    base.offset = s.offset.get();
    base.length = s.length.get();
    base.query = s.query.get();
    base.query_len = m;
    base.matrix = s.matrix.get();
    base.alphabet = alphabet_;
    base.gap_open = gap_open_;
    base.gap_extend = gap_extend_;
    base.score = s.score.get();
    base.overflow = s.overflow.get();
    base.overflow_count = s.counters.get();

    // One persistent grid: as many blocks as are resident at once, fewer
    // when a multi-pass launch's boundary slots would not fit.
    const auto launch = [&](int c, const uint32_t* pair, uint32_t groups, uint32_t* counter) {
        const SwConfig& k = kConfigs[c];
        SwLaunchParams p = base;
        p.pair = pair;
        p.groups = groups;
        p.overflow_at = k.wide ? INT_MAX : overflow_at_;
        p.next_pair = counter;
        const uint32_t per_block = static_cast<uint32_t>(k.threads / k.G);
        uint32_t grid = std::min((groups + per_block - 1) / per_block,
                                 static_cast<uint32_t>(s.blocks_per_sm[c] * s.prop.multiProcessorCount));
        if (m > k.rows()) {
            p.boundary_columns = sw_boundary_columns(s.lengths[0], k.G);
            const size_t block_bytes = size_t{p.boundary_columns} * per_block *
                                       static_cast<size_t>(k.wide ? SwCell32::kBoundaryBytes : SwCell16::kBoundaryBytes);
            size_t free_bytes = 0, total_bytes = 0;
            WARPDP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
            const size_t budget = static_cast<size_t>(static_cast<double>(free_bytes + s.boundary.size()) * kBoundaryShare);
            grid = std::min<uint32_t>(grid, static_cast<uint32_t>(std::max<size_t>(1, budget / block_bytes)));
            s.boundary.reserve(grid * block_bytes);
            p.boundary = s.boundary.get();
        }
        const size_t smem = static_cast<size_t>(sw_smem_words(alphabet_, k.G, k.threads)) * 4;
        k.kernel<<<grid, k.threads, smem, st>>>(p);
        WARPDP_CUDA_CHECK_LAUNCH("gpu-sw kernel");
    };

    const int config = forced_ >= 0 ? forced_ : choose_config(m);
    launch(config, s.pair.get(), pairs, s.counters.get() + (kConfigs[config].wide ? 2 : 1));

    // Targets whose 16-bit best may have wrapped: again with 32-bit cells,
    // paired in the order the kernel listed them (the list's unused tail
    // holds kSwNoTarget, so an odd count leaves the last pair half empty).
    WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.count_host.get(), s.counters.get(), sizeof(uint32_t), cudaMemcpyDeviceToHost, st));
    WARPDP_CUDA_CHECK(cudaStreamSynchronize(st));
    const uint32_t over = s.count_host.get()[0];
    if (over > 0) {
        s.recomputed = over;
        launch(kWide, s.overflow.get(), (over + 1) / 2, s.counters.get() + 2);
    }
    WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.score_host.get(), s.score.get(), n * sizeof(int32_t), cudaMemcpyDeviceToHost, st));
    WARPDP_CUDA_CHECK(cudaStreamSynchronize(st));
}

void CudaSwEngine::score(std::span<const uint8_t> query, std::span<int32_t> scores) {
    const auto t0 = std::chrono::steady_clock::now();
    check_sw_score_call(have_load_, loaded_, query, scores.size());
    std::fill(scores.begin(), scores.end(), 0);  // empty targets (and an empty query) score 0
    stats_ = SwEngineStats{};
    if (!query.empty()) {
        if (slots_.size() == 1) {
            run_slot(*slots_[0], query);
        } else {
            std::vector<std::exception_ptr> errors(slots_.size());
            std::vector<std::thread> threads;
            for (size_t d = 0; d < slots_.size(); ++d)
                threads.emplace_back([&, d] {
                    try {
                        run_slot(*slots_[d], query);
                    } catch (...) {
                        errors[d] = std::current_exception();
                    }
                });
            for (auto& t : threads) t.join();
            for (auto& e : errors)
                if (e) std::rethrow_exception(e);
        }
        for (const auto& s : slots_) {
            const int32_t* got = s->score_host.get();
            for (size_t k = 0; k < s->which.size(); ++k) scores[s->which[k]] = got[k];
            for (uint32_t len : s->lengths) stats_.cells += uint64_t{len} * query.size();
            stats_.recomputed += s->recomputed;
        }
    }
    stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::unique_ptr<SwCudaEngine> make_sw_cuda_engine_ex(const std::vector<int>& devices) {
    return std::make_unique<CudaSwEngine>(devices);
}

std::unique_ptr<SwEngine> make_sw_cuda_engine(const std::vector<int>& devices) { return make_sw_cuda_engine_ex(devices); }

std::vector<std::string> sw_cuda_variants() {
    std::vector<std::string> v;
    for (const SwConfig& c : kConfigs) v.push_back(c.name);
    return v;
}

}  // namespace warpdp
