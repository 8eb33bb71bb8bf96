// The CUDA engine of gpu-sw (kernels/sw/sw_cuda.hpp, docs/sw.md): load()
// sorts the chunk's targets longest first, shares them between the devices
// (longest-processing-time rule, kernels/common/resident_targets.hpp),
// pairs neighbours of that order (a group of lanes aligns two targets at
// once, sw_kernels.cuh) and uploads residues, offsets and lengths once, in
// input order; they stay resident for every query until the next load().
// score() uploads the query and runs one launch per device over every pair,
// with the configuration (lanes per group x query rows per lane) that
// the one table, sw_configs.inc, makes fastest for the query's length; then the
// targets whose 16-bit best came near the top of the range again with
// 32-bit cells; then it copies the scores back, already in input order on
// one device. Every configuration computes the same integers, so results
// never depend on it, on the devices or on the split.
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
#include "kernels/common/device_memory.hpp"
#include "kernels/common/forced_variant.hpp"
#include "kernels/common/per_device.hpp"
#include "kernels/common/resident_targets.hpp"
#include "kernels/sw/sw_cuda.hpp"
#include "kernels/sw/sw_kernels.cuh"

namespace warpdp {
namespace {

using namespace warpdp::cuda;

struct SwConfig {
    const char* name;
    bool wide;    // 32-bit cells
    int G, R;     // lanes per pair, query rows per lane
    int threads;  // per block
    SwKernelFn single, multi;  // queries of at most G * R rows, and longer ones
    // GCUPS over padded rows (every query row rounded up to whole passes),
    // one pass and several: what the choice of configuration compares.
    double single_rate, multi_rate;
    uint32_t rows() const { return static_cast<uint32_t>(G * R); }
    // Bytes of one column of the several-pass kernel's boundary (Ĥ and F).
    int boundary_bytes() const { return wide ? SwCell32::kBoundaryBytes : SwCell16::kBoundaryBytes; }
};

// The table (sw_configs.inc) as the engine reads it: each entry's kernels
// come from the unit that compiles them (sw_instantiations.cuh), the last
// entry is the 32-bit one.
const SwConfig kConfigs[] = {
#define WARPDP_SW16(G, R, B, single_unroll, multi_unroll, single_rate, multi_rate)                     \
    {"s16_g" #G "_r" #R "_b" #B, false, G, R, 128, SwKernelOf<SwCell16, G, R, B, false, single_unroll>::get(), \
     SwKernelOf<SwCell16, G, R, B, true, multi_unroll>::get(), single_rate, multi_rate},
#define WARPDP_SW32(G, R, B, single_unroll, multi_unroll)                                                \
    {"s32_g" #G "_r" #R, true, G, R, 128, SwKernelOf<SwCell32, G, R, B, false, single_unroll>::get(),       \
     SwKernelOf<SwCell32, G, R, B, true, multi_unroll>::get(), 1, 1},
#include "kernels/sw/sw_configs.inc"
#undef WARPDP_SW16
#undef WARPDP_SW32
};
constexpr int kNumConfigs = static_cast<int>(sizeof(kConfigs) / sizeof(kConfigs[0]));
constexpr int kWide = kNumConfigs - 1;

// The default configuration for a query of m residues: the least time by
// the table's rates, counting the rows of every pass, padding included.
int choose_config(uint64_t m) {
    int best = 0;
    double best_time = 0;
    for (int c = 0; c < kWide; ++c) {
        const SwConfig& k = kConfigs[c];
        const uint64_t w = k.rows(), passes = (m + w - 1) / w;
        const double time = static_cast<double>(passes * w) / (passes == 1 ? k.single_rate : k.multi_rate);
        if (c == 0 || time < best_time) best = c, best_time = time;
    }
    return best;
}

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
    int blocks_per_sm[2][kNumConfigs] = {};  // occupancy at the loaded alphabet: single-pass, multi-pass kernel
    // Resident chunk, in input order.
    std::vector<uint32_t> which;  // input index of each resident target, ascending
    uint32_t pairs = 0;           // pairs of non-empty targets
    uint32_t longest = 0;
    uint64_t residues_total = 0;
    DeviceBuffer<uint8_t> residues;
    DeviceBuffer<uint64_t> offset;
    DeviceBuffer<uint32_t> length, pair, overflow, counters;  // counters: overflow count, two pair counters
    DeviceBuffer<int32_t> score;
    DeviceBuffer<uint32_t> matrix;
    DeviceBuffer<uint32_t> query_rows;  // sw_query_rows of the configuration launched
    DeviceBuffer<uint8_t> boundary;
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
    // Dynamic shared memory of a configuration's one-pass or several-pass kernel.
    size_t smem_bytes(const SwConfig& k, bool multi) const {
        const int top_bytes = multi ? k.boundary_bytes() : 0;
        return static_cast<size_t>(sw_smem_words(alphabet_, k.G, k.threads, top_bytes)) * 4;
    }
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

    // Every target, empty ones included, is resident on one device (they
    // score 0 there without a pair); each device's share longest first.
    auto parts = split_longest_first(targets, slots_.size());
    have_load_ = false;  // until every device holds its share
    run_per_device(slots_.size(), [&](size_t d) { load_slot(*slots_[d], targets, std::move(parts[d])); });
    loaded_ = targets.size();
    have_load_ = true;
}

void CudaSwEngine::load_slot(Slot& s, const SeqBatch& targets, std::vector<uint32_t> order) {
    DeviceGuard guard(s.device);
    std::vector<uint32_t> which = order;
    std::sort(which.begin(), which.end());
    PackedLayout layout = pack_layout(targets, which, 1, 0);  // kernels read bytes, in bounds
    const size_t n = which.size();
    size_t nonempty = order.size();
    while (nonempty > 0 && targets.length(order[nonempty - 1]) == 0) --nonempty;  // empties last
    const size_t pairs = (nonempty + 1) / 2;
    // The previous chunk goes first; this one must fit with room for the
    // per-query buffers.
    s.residues.reset(0);
    s.offset.reset(0);
    s.length.reset(0);
    s.pair.reset(0);
    s.score.reset(0);
    s.overflow.reset(0);
    // The single-pass kernel numbers a group's columns in 32 bits: every
    // pair at least 64 columns, the sum must stay below 2^32.
    if (layout.bytes + pairs * 64 >= (uint64_t{1} << 32) - (uint64_t{1} << 20))
        throw ResourceError("the database chunk of " + std::to_string(targets.total_residues()) +
                            " residues is too large for the CUDA engine: give gpu-sw chunks of at most 4e9 residues");
    const uint64_t need = layout.bytes + n * (8 + 4 + 4 + 4 + 4), budget = device_memory().budget();
    if (need > budget)
        throw ResourceError("the database chunk of " + std::to_string(targets.total_residues()) + " residues needs " +
                            gib(need) + " on GPU " + std::to_string(s.device) + ", " + gib(budget) +
                            " usable: give gpu-sw smaller chunks");
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
        std::vector<uint32_t> resident(targets.size(), kSwNoTarget);  // input index -> resident index
        for (size_t k = 0; k < n; ++k) resident[which[k]] = static_cast<uint32_t>(k);
        std::vector<uint32_t> pair(2 * pairs);
        for (size_t k = 0; k < 2 * pairs; ++k) pair[k] = k < nonempty ? resident[order[k]] : kSwNoTarget;
        WARPDP_CUDA_CHECK(cudaMemcpy(s.pair.get(), pair.data(), pair.size() * 4, cudaMemcpyHostToDevice));
    }
    s.matrix.reset(matrix_.size());
    WARPDP_CUDA_CHECK(cudaMemcpy(s.matrix.get(), matrix_.data(), matrix_.size() * 4, cudaMemcpyHostToDevice));
    for (int c = 0; c < kNumConfigs; ++c) {
        const SwConfig& k = kConfigs[c];
        for (int multi = 0; multi < 2; ++multi) {
            const int smem = static_cast<int>(smem_bytes(k, multi));
            if (static_cast<size_t>(smem) > s.prop.sharedMemPerBlockOptin)
                throw ResourceError(std::string("gpu-sw CUDA kernel ") + k.name + " needs " + std::to_string(smem) +
                                    " bytes of shared memory with a " + std::to_string(alphabet_ - 1) +
                                    "-letter matrix, GPU " + std::to_string(s.device) + " has " +
                                    std::to_string(s.prop.sharedMemPerBlockOptin));
            const SwKernelFn kernel = multi ? k.multi : k.single;
            WARPDP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
            WARPDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&s.blocks_per_sm[multi][c], kernel, k.threads, smem));
        }
        if (std::min(s.blocks_per_sm[0][c], s.blocks_per_sm[1][c]) < 1)
            throw ResourceError(std::string("gpu-sw CUDA kernel ") + k.name + " does not fit GPU " +
                                std::to_string(s.device) + " with a " + std::to_string(alphabet_ - 1) + "-letter matrix");
    }
    s.score_host.reserve(std::max<size_t>(n, 1));
    s.pairs = static_cast<uint32_t>(pairs);
    s.longest = nonempty ? targets.length(order[0]) : 0;
    s.residues_total = 0;
    for (uint32_t len : layout.len) s.residues_total += len;
    s.which = std::move(which);
}

void CudaSwEngine::run_slot(Slot& s, std::span<const uint8_t> query) {
    DeviceGuard guard(s.device);
    s.recomputed = 0;
    const size_t n = s.which.size();
    if (n == 0) return;
    const uint32_t m = static_cast<uint32_t>(query.size());
    cudaStream_t st = s.stream->get();

    WARPDP_CUDA_CHECK(cudaMemsetAsync(s.counters.get(), 0, 4 * sizeof(uint32_t), st));
    WARPDP_CUDA_CHECK(cudaMemsetAsync(s.score.get(), 0, n * sizeof(int32_t), st));  // empty targets score 0
    WARPDP_CUDA_CHECK(cudaMemsetAsync(s.overflow.get(), 0xff, s.overflow.size() * sizeof(uint32_t), st));

    SwLaunchParams base;
    base.residues = s.residues.get();
    base.offset = s.offset.get();
    base.length = s.length.get();
    base.query_len = m;
    base.matrix = s.matrix.get();
    base.alphabet = alphabet_;
    base.gap_open = gap_open_;
    base.gap_extend = gap_extend_;
    base.open_pair = sw_pair16(-gap_open_);
    base.extend_pair = sw_pair16(-gap_extend_);
    base.score = s.score.get();
    base.overflow = s.overflow.get();
    base.overflow_count = s.counters.get();

    // One persistent grid: as many blocks as are resident at once, fewer
    // when a multi-pass launch's boundary slots would not fit.
    const auto launch = [&](int c, const uint32_t* pair, uint32_t groups, uint32_t* counter) {
        const SwConfig& k = kConfigs[c];
        // The query's rows as this configuration's lanes load them; the
        // copy follows any earlier launch on the stream, and being from
        // pageable memory it has taken `rows` before the call returns.
        const std::vector<uint32_t> rows = sw_query_rows(query.data(), m, k.G, k.R, alphabet_ - 1);
        s.query_rows.reserve(rows.size());
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.query_rows.get(), rows.data(), rows.size() * 4, cudaMemcpyHostToDevice, st));
        SwLaunchParams p = base;
        p.query_rows = s.query_rows.get();
        p.pair = pair;
        p.groups = groups;
        p.overflow_at = k.wide ? INT_MAX : overflow_at_;
        p.next_pair = counter;
        const uint32_t per_block = static_cast<uint32_t>(k.threads / k.G);
        const bool multi = m > k.rows();
        uint32_t grid = std::min((groups + per_block - 1) / per_block,
                                 static_cast<uint32_t>(s.blocks_per_sm[multi][c] * s.prop.multiProcessorCount));
        if (multi) {
            p.boundary_columns = sw_boundary_columns(s.longest, k.G);
            // A group numbers its columns in 32 bits and takes pairs until
            // 2^31 (sw_passes): one pair's passes must fit below that.
            if ((m + k.rows() - 1) / k.rows() * uint64_t{p.boundary_columns} >= (uint64_t{1} << 31) - (uint64_t{1} << 20))
                throw ResourceError("a query of " + std::to_string(m) + " residues against a target of " +
                                    std::to_string(s.longest) + " is too large for the CUDA engine; use --device cpu");
            const size_t block_bytes = size_t{p.boundary_columns} * per_block *
                                       static_cast<size_t>(k.boundary_bytes());
            const uint64_t free_bytes = device_memory().free;
            const size_t budget = static_cast<size_t>(static_cast<double>(free_bytes + s.boundary.size()) * kBoundaryShare);
            grid = std::min<uint32_t>(grid, static_cast<uint32_t>(std::max<size_t>(1, budget / block_bytes)));
            s.boundary.reserve(grid * block_bytes);
            p.boundary = s.boundary.get();
        }
        (multi ? k.multi : k.single)<<<grid, k.threads, smem_bytes(k, multi), st>>>(p);
        WARPDP_CUDA_CHECK_LAUNCH("gpu-sw kernel");
    };

    const int config = forced_ >= 0 ? forced_ : choose_config(m);
    if (s.pairs > 0) launch(config, s.pair.get(), s.pairs, s.counters.get() + (kConfigs[config].wide ? 2 : 1));

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
    stats_ = SwEngineStats{};
    if (query.empty()) {
        std::fill(scores.begin(), scores.end(), 0);
    } else {
        run_per_device(slots_.size(), [&](size_t d) { run_slot(*slots_[d], query); });
        // Every target is resident on one device, in input order there.
        for (const auto& s : slots_) {
            const int32_t* got = s->score_host.get();
            if (s->which.size() == scores.size()) std::copy(got, got + scores.size(), scores.begin());
            else
                for (size_t k = 0; k < s->which.size(); ++k) scores[s->which[k]] = got[k];
            stats_.cells += s->residues_total * query.size();
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

uint32_t sw_cuda_variant_rows(const std::string& name) {
    for (const SwConfig& c : kConfigs)
        if (name == c.name) return c.rows();
    return 0;
}

std::vector<std::string> sw_cuda_variants() {
    std::vector<std::string> v;
    for (const SwConfig& c : kConfigs) v.push_back(c.name);
    return v;
}

}  // namespace warpdp
