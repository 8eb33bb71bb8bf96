// The CUDA engine of gpu-nussinov: sequences of length 0 and 1 answered on
// the host; short ones whose two tables fit shared memory (choose()) folded
// by the batch kernels, many per launch; all others by the tiled wavefront
// (nussinov_kernels.cuh), those of one tile count many per launch (as many
// as the card holds). Every structure is traced on
// the GPU (the rule of nussinov_traceback.hpp, by a warp): only scores and
// dot-bracket strings come back. Batch
// sequences are cut into contiguous shares of equal work between the
// devices, each tiled one goes to the least loaded device; one host thread
// per device. Every device's memory is planned
// before its first launch: a long sequence whose tables do not fit gets a
// ResourceError naming the longest length that card can fold. The kernels
// compute exact integers in an order-free max, so results never depend on
// the device, the split or the launch shape.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <exception>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "core/base/errors.hpp"
#include "core/nussinov/nussinov_traceback.hpp"
#include "kernels/common/cuda_check.cuh"
#include "kernels/common/device_memory.hpp"
#include "kernels/common/forced_variant.hpp"
#include "kernels/common/per_device.hpp"
#include "kernels/nussinov/nussinov_cuda.hpp"
#include "kernels/nussinov/nussinov_kernels.cuh"

namespace warpdp {
namespace {

using namespace warpdp::cuda;

enum class Shape { batch_smem, tiles };

template <class Pack>
struct NusKernels {
    using Cell = typename Pack::Cell;
    void (*diag)(NusLongParams<Cell>);
    void (*product)(NusLongParams<Cell>);
    void (*finish)(NusLongParams<Cell>);
};

// The tiled kernel instances of each cell width.
const NusKernels<NusPack16> kKernels16 = {nus_diag_kernel<NusPack16>, nus_product_kernel<NusPack16>,
                                          nus_finish_kernel<NusPack16>};
const NusKernels<NusPack32> kKernels32 = {nus_diag_kernel<NusPack32>, nus_product_kernel<NusPack32>,
                                          nus_finish_kernel<NusPack32>};
template <class Pack>
const NusKernels<Pack>& kernels() {
    if constexpr (sizeof(typename Pack::Cell) == 2) return kKernels16;
    else return kKernels32;
}

// The batch kernel of each cell width, by kNusBatchThreadChoices.
template <class Pack>
using NusBatchKernels = void (*[3])(NusBatchParams<typename Pack::Cell>);
template <class Pack>
const NusBatchKernels<Pack>& batch_kernels() {
    static const NusBatchKernels<Pack> k = {nus_batch_kernel<Pack, 256>, nus_batch_kernel<Pack, 512>,
                                            nus_batch_kernel<Pack, 1024>};
    return k;
}

struct NusVariant {
    const char* name;
    Shape shape;
    int bytes;  // a cell's
};

// The one table of instances; stats list the used ones in this order.
const NusVariant kVariants[] = {
    {"batch8_smem", Shape::batch_smem, 1},
    {"batch16_smem", Shape::batch_smem, 2},
    {"batch32_smem", Shape::batch_smem, 4},
    {"long16", Shape::tiles, 2},
    {"long32", Shape::tiles, 4},
};
constexpr int kNumVariants = static_cast<int>(sizeof(kVariants) / sizeof(kVariants[0]));

// Longer sequences take the tiled wavefront: a block per short sequence
// leaves a long one's O(n^3) work to one multiprocessor.
constexpr uint32_t kBatchMaxLength = 1024;
constexpr uint32_t kCodeAlign = 16;

int variant_index(Shape s, int bytes) {
    for (int v = 0; v < kNumVariants; ++v)
        if (kVariants[v].shape == s && kVariants[v].bytes == bytes) return v;
    throw InternalError("no gpu-nussinov CUDA variant for that shape");
}

// The largest score any interval of n bases can reach.
uint64_t score_bound(uint64_t n, int max_w) { return static_cast<uint64_t>(max_w) * (n / 2); }
bool needs_wide(uint64_t n, int max_w) { return score_bound(n, max_w) > 0xffffu; }
// The narrowest cells that hold every score of n bases (docs/nussinov.md §10.1).
int cell_bytes(uint64_t n, int max_w) {
    const uint64_t b = score_bound(n, max_w);
    return b <= 0xffu ? 1 : b <= 0xffffu ? 2 : 4;
}

uint64_t batch_table_bytes(uint32_t len, int bytes) {
    const uint64_t cells = bytes == 1 ? nus_batch_table_cells<NusPack8::kAlign>(len) : nus_batch_table_cells<NusPack16::kAlign>(len);
    return (cells + 7) / 8 * 8 * static_cast<uint64_t>(bytes);
}

// The batch kernel's blocks whose tables of `len` bases fit one
// multiprocessor's shared memory at once (0: not one), at most 8. Sequences
// of one count fold in one launch (docs/nussinov.md §10.2).
int batch_blocks_per_sm(uint32_t len, int bytes, const cudaDeviceProp& prop) {
    const uint64_t table = batch_table_bytes(len, bytes);
    if (table > prop.sharedMemPerBlockOptin) return 0;
    const uint64_t per_block = table + prop.reservedSharedMemPerBlock;
    return static_cast<int>(std::clamp<uint64_t>(prop.sharedMemPerMultiprocessor / per_block, 1, 8));
}

// Index into kNusBatchThreadChoices for a launch of `blocks` a
// multiprocessor: at least 1,024 threads on each (fewer, larger blocks give
// every cell of a diagonal more threads).
int batch_thread_choice(int blocks) { return blocks <= 1 ? 2 : blocks <= 3 ? 1 : 0; }

// K-split of the product on diagonal d for `count` sequences at once: enough
// blocks to fill the device while whole-tile ranges remain.
int product_splits(int nb, int d, int sms, uint64_t count) {
    if (d < 2) return 0;
    const uint64_t tiles = uint64_t(nb - d) * count, target = 4 * uint64_t(std::max(sms, 1));
    return static_cast<int>(std::clamp<uint64_t>((target + tiles - 1) / tiles, 1, uint64_t(d - 1)));
}

struct LongPlan {
    int nb = 0;
    uint64_t count = 1;          // sequences folded at once
    uint64_t tiles = 0;          // nb (nb + 1) / 2
    uint64_t table_bytes = 0;    // U + V, all sequences
    uint64_t partial_cells = 0;  // a sequence's: the largest splits * tiles * B * B of one diagonal
    uint64_t bytes = 0;          // all device memory of the launch
};

LongPlan plan_tiles(int nb, bool wide, int sms, uint64_t count) {
    LongPlan p;
    p.nb = nb;
    p.count = count;
    p.tiles = static_cast<uint64_t>(nb) * (nb + 1) / 2;
    const uint64_t tile_cells = uint64_t{kNusTile} * kNusTile, span = uint64_t(nb) * kNusTile;
    p.table_bytes = count * 2 * p.tiles * tile_cells * (wide ? 4 : 2);
    for (int d = 2; d < nb; ++d)
        p.partial_cells = std::max<uint64_t>(p.partial_cells, uint64_t(product_splits(nb, d, sms, count)) * (nb - d) * tile_cells);
    const uint64_t trace = span + 4 * 2 * (span + 2) + 8;  // structure, stack, len, score
    p.bytes = p.table_bytes + count * (p.partial_cells * 4 + span + trace);
    return p;
}

LongPlan plan_long(uint64_t n, bool wide, int sms) {
    return plan_tiles(static_cast<int>((n + kNusTile - 1) / kNusTile), wide, sms, 1);
}

// The longest n whose plan fits `bytes` (cell width by n and max_w).
uint64_t longest_fitting(uint64_t bytes, int max_w, int sms) {
    uint64_t lo = 0, hi = uint64_t{1} << 24;  // 16M bases: 10^14 bytes of table
    while (lo < hi) {
        const uint64_t mid = (lo + hi + 1) / 2;
        const bool fit = score_bound(mid, max_w) <= static_cast<uint64_t>(INT32_MAX) &&
                         plan_long(mid, needs_wide(mid, max_w), sms).bytes <= bytes;
        if (fit) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

std::string gib(uint64_t bytes) {
    char s[32];
    std::snprintf(s, sizeof s, "%.1f GiB", static_cast<double>(bytes) / double(uint64_t{1} << 30));
    return s;
}

NusRules make_rules(const NussinovParams& p) {
    NusRules r;
    r.min_loop = p.min_loop;
    for (int a = 0; a < 5; ++a)
        for (int b = 0; b < 5; ++b) r.w[a * 5 + b] = p.weight(static_cast<uint8_t>(a), static_cast<uint8_t>(b));
    r.zero_means_unpaired = p.w_gc > 0 && p.w_au > 0 && (!p.gu || p.w_gu > 0);
    return r;
}

struct Slot {
    int device = 0;
    cudaDeviceProp prop{};
    std::unique_ptr<Stream> stream;
    std::unique_ptr<Event> ev_start, ev_end, ev_trace;
    // Kept between calls, grown only.
    DeviceBuffer<uint8_t> codes;
    DeviceBuffer<uint64_t> off, out_off;
    DeviceBuffer<uint32_t> len;
    DeviceBuffer<int32_t> score, stack;
    DeviceBuffer<char> structure;
    DeviceBuffer<uint8_t> scratch;  // the tiled kernels' tables
    DeviceBuffer<int32_t> partial;
    // Per fold() call.
    std::vector<uint32_t> batch;  // sequence indices
    std::vector<uint32_t> longs;
    double kernel_ms = 0, device_ms = 0, traceback_ms = 0;
    uint64_t launches = 0;
    bool used[kNumVariants] = {};
};

struct Job {
    std::span<const std::span<const uint8_t>> seqs;
    const NussinovParams* params;
    NusRules rules;
    int max_w = 0;
    bool with_structure = false;
    std::span<NussinovFold> out;
    const std::vector<int8_t>* variant;  // per sequence: index into kVariants, -1: host
};

class CudaNussinovEngine final : public NussinovCudaEngine {
public:
    explicit CudaNussinovEngine(const std::vector<int>& devices) {
        const auto props = open_devices(devices, "gpu-nussinov");
        for (size_t k = 0; k < devices.size(); ++k) {
            DeviceGuard guard(devices[k]);
            auto s = std::make_unique<Slot>();
            s->device = devices[k];
            s->prop = props[k];
            s->stream = std::make_unique<Stream>();
            s->ev_start = std::make_unique<Event>();
            s->ev_end = std::make_unique<Event>();
            s->ev_trace = std::make_unique<Event>();
            slots_.push_back(std::move(s));
        }
    }

    std::string name() const override { return "cuda-x" + std::to_string(slots_.size()); }
    NussinovCudaStats last_stats() const override { return stats_; }
    void force_variant(const std::string& name) override {
        forced_ = forced_variant_index(kVariants, name, "gpu-nussinov CUDA kernel");
    }
    void set_batch_max_length(uint32_t n) override { batch_max_ = n; }

    void fold(std::span<const std::span<const uint8_t>> seqs, const NussinovParams& p, bool with_structure,
              std::span<NussinovFold> out) override;

private:
    int choose(uint64_t n, int max_w, size_t smem_optin) const;
    void run_slot(Slot& s, const Job& job);
    template <class Pack>
    void run_batch(Slot& s, const Job& job, std::span<const uint32_t> items);
    template <class Pack>
    void run_tiles(Slot& s, const Job& job, std::span<const uint32_t> items);

    std::vector<std::unique_ptr<Slot>> slots_;
    NussinovCudaStats stats_;
    int forced_ = -1;
    uint32_t batch_max_ = 0;
};

int CudaNussinovEngine::choose(uint64_t n, int max_w, size_t smem_optin) const {
    const int bytes = cell_bytes(n, max_w);
    if (forced_ >= 0) {
        const NusVariant& v = kVariants[forced_];
        if (bytes > v.bytes)
            throw UsageError(std::string("gpu-nussinov CUDA kernel ") + v.name + ": a sequence of " + std::to_string(n) +
                             " bases may score " + std::to_string(score_bound(n, max_w)) + ", beyond " +
                             std::to_string(8 * v.bytes) + "-bit cells");
        if (v.shape == Shape::batch_smem && batch_table_bytes(static_cast<uint32_t>(std::min<uint64_t>(n, UINT32_MAX)), v.bytes) > smem_optin)
            throw UsageError(std::string("gpu-nussinov CUDA kernel ") + v.name + ": the tables of a sequence of " +
                             std::to_string(n) + " bases exceed shared memory");
        if (v.shape != Shape::tiles && n > (uint64_t{1} << 20))
            throw UsageError(std::string("gpu-nussinov CUDA kernel ") + v.name + ": " + std::to_string(n) +
                             " bases is too long for the batch kernels");
        return forced_;
    }
    // The batch shape wherever one block's tables fit shared memory (up to
    // batch_max_ when set); the tiled kernels fold the rest, many at once
    // where they are short (docs/nussinov.md §10.2).
    const uint64_t reach = batch_max_ != 0 ? std::min<uint64_t>(batch_max_, kBatchMaxLength) : kBatchMaxLength;
    // Cells as narrow as the scores allow: 8-bit ones halve the tables and
    // double the k a shared-memory load brings (the tiles start at 16 bits).
    const bool smem = n <= reach && batch_table_bytes(static_cast<uint32_t>(n), bytes) <= smem_optin;
    return smem ? variant_index(Shape::batch_smem, bytes) : variant_index(Shape::tiles, std::max(bytes, 2));
}

void CudaNussinovEngine::fold(std::span<const std::span<const uint8_t>> seqs, const NussinovParams& p, bool with_structure,
                              std::span<NussinovFold> out) {
    if (out.size() != seqs.size())
        throw InternalError("fold(): " + std::to_string(out.size()) + " outputs for " + std::to_string(seqs.size()) +
                            " sequences");
    if (p.min_loop < 0 || p.w_gc < 0 || p.w_au < 0 || p.w_gu < 0)
        throw UsageError("gpu-nussinov: min_loop and the pair weights must be >= 0");
    const int max_w = std::max({p.w_gc, p.w_au, p.gu ? p.w_gu : 0});
    size_t smem_optin = SIZE_MAX;
    for (const auto& s : slots_) smem_optin = std::min<size_t>(smem_optin, s->prop.sharedMemPerBlockOptin);

    std::vector<int8_t> variant(seqs.size(), -1);
    stats_ = NussinovCudaStats{};
    for (size_t k = 0; k < seqs.size(); ++k) {
        for (uint8_t c : seqs[k])
            if (c > kRnaOther) throw InternalError("fold(): base code " + std::to_string(c) + " out of range");
        const uint64_t n = seqs[k].size();
        if (n < 2) {
            out[k] = NussinovFold{};
            if (with_structure) out[k].structure.assign(n, '.');
            ++stats_.host_sequences;
            continue;
        }
        if (score_bound(n, max_w) > static_cast<uint64_t>(INT32_MAX))
            throw NussinovSequenceError(k, "gpu-nussinov CUDA engine: a sequence of " + std::to_string(n) + " bases with pair weight " +
                                std::to_string(max_w) + " may score beyond 2^31 - 1");
        variant[k] = static_cast<int8_t>(choose(n, max_w, smem_optin));
        stats_.cells += n * (n + 1) / 2;
        stats_.steps += (n * n * n - n) / 6;
    }

    // Work shares: short sequences by length, longest first, cut into
    // contiguous shares of equal steps; long ones longest first, each to the
    // slot with the least work so far.
    const size_t ns = slots_.size();
    std::vector<uint32_t> batch, longs;
    for (uint32_t k = 0; k < seqs.size(); ++k) {
        if (variant[k] < 0) continue;
        (kVariants[variant[k]].shape == Shape::tiles ? longs : batch).push_back(k);
    }
    auto by_length = [&](uint32_t x, uint32_t y) {
        return seqs[x].size() != seqs[y].size() ? seqs[x].size() > seqs[y].size() : x < y;
    };
    std::sort(batch.begin(), batch.end(), by_length);
    std::sort(longs.begin(), longs.end(), by_length);
    auto steps = [&](uint32_t k) { const double n = double(seqs[k].size()); return n * n * n / 6 + 1; };
    std::vector<double> load(ns, 0);
    for (auto& s : slots_) s->batch.clear(), s->longs.clear();
    double batch_total = 0;
    for (uint32_t k : batch) batch_total += steps(k);
    {
        double acc = 0;
        size_t d = 0;
        for (uint32_t k : batch) {
            while (d + 1 < ns && acc >= batch_total * double(d + 1) / double(ns)) ++d;
            slots_[d]->batch.push_back(k);
            acc += steps(k);
        }
        for (size_t x = 0; x < ns; ++x)
            for (uint32_t k : slots_[x]->batch) load[x] += steps(k);
    }
    for (uint32_t k : longs) {
        const size_t d = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
        slots_[d]->longs.push_back(k);
        load[d] += steps(k);
    }

    Job job{seqs, &p, make_rules(p), max_w, with_structure, out, &variant};
    run_per_device(ns, [&](size_t d) {
        if (!slots_[d]->batch.empty() || !slots_[d]->longs.empty()) run_slot(*slots_[d], job);
    });

    bool used[kNumVariants] = {};
    for (auto& s : slots_) {
        if (s->batch.empty() && s->longs.empty()) continue;
        stats_.kernel_ms = std::max(stats_.kernel_ms, s->kernel_ms);
        stats_.device_ms = std::max(stats_.device_ms, s->device_ms);
        stats_.traceback_ms += s->traceback_ms;
        stats_.launches += s->launches;
        stats_.batch_sequences += s->batch.size();
        stats_.long_sequences += s->longs.size();
        for (int v = 0; v < kNumVariants; ++v) used[v] = used[v] || s->used[v];
    }
    for (int v = 0; v < kNumVariants; ++v)
        if (used[v]) stats_.variant += (stats_.variant.empty() ? "" : "+") + std::string(kVariants[v].name);
}

void CudaNussinovEngine::run_slot(Slot& s, const Job& job) {
    const auto t0 = std::chrono::steady_clock::now();
    DeviceGuard guard(s.device);
    s.kernel_ms = s.traceback_ms = 0;
    s.launches = 0;
    std::fill(std::begin(s.used), std::end(s.used), false);
    // Memory first: every long sequence of this share must fit the card
    // before any runs. The host holds only scores and structures.
    if (!s.longs.empty()) {
        const uint64_t held = s.scratch.size() + s.partial.size() * sizeof(int32_t);  // reused below
        const uint64_t avail = device_memory().budget(held);
        for (uint32_t k : s.longs) {
            const uint64_t n = job.seqs[k].size();
            const LongPlan plan = plan_long(n, kVariants[(*job.variant)[k]].bytes == 4, s.prop.multiProcessorCount);
            if (plan.bytes > avail)
                throw NussinovSequenceError(k, "gpu-nussinov: a sequence of " + std::to_string(n) + " bases needs " + gib(plan.bytes) +
                                    " on GPU " + std::to_string(s.device) + " (" + s.prop.name + ", " + gib(avail) +
                                    " usable); the longest this card can fold is " +
                                    std::to_string(longest_fitting(avail, job.max_w, s.prop.multiProcessorCount)) +
                                    " bases");
        }
    }
    // Batch sequences grouped by instance (cell width), each group one upload
    // and a launch per class of table size (run_batch).
    for (int v = 0; v < kNumVariants; ++v) {
        if (kVariants[v].shape == Shape::tiles) continue;
        std::vector<uint32_t> items;
        for (uint32_t k : s.batch)
            if ((*job.variant)[k] == v) items.push_back(k);
        if (items.empty()) continue;
        s.used[v] = true;
        if (kVariants[v].bytes == 4) run_batch<NusPack32>(s, job, items);
        else if (kVariants[v].bytes == 2) run_batch<NusPack16>(s, job, items);
        else run_batch<NusPack8>(s, job, items);
    }
    // Tiled sequences (longest first) in runs of one tile count and cell
    // width, each run folded together (a launch's grid y is the sequence):
    // alone, a sequence of nb tiles gives a tile diagonal's launches at most
    // nb blocks, far from filling the card below tens of thousands of bases
    // (docs/nussinov.md §10.2). A run too small to give each multiprocessor
    // two blocks on its first diagonals also takes shorter sequences, padded
    // to its tile count, while that costs them at most 25% more steps.
    const auto tiles_of = [&](uint32_t k) { return (job.seqs[k].size() + kNusTile - 1) / kNusTile; };
    for (size_t x = 0; x < s.longs.size();) {
        const int v = (*job.variant)[s.longs[x]];
        const uint64_t nb = tiles_of(s.longs[x]);
        size_t y = x + 1;
        for (; y < s.longs.size() && (*job.variant)[s.longs[y]] == v; ++y) {
            const uint64_t ny = tiles_of(s.longs[y]);
            const bool small = uint64_t(y - x) * nb < 2 * uint64_t(s.prop.multiProcessorCount);
            if (ny != nb && !(small && 5 * ny * ny * ny >= 4 * nb * nb * nb)) break;
        }
        s.used[v] = true;
        const std::span<const uint32_t> items(s.longs.data() + x, y - x);
        if (kVariants[v].bytes == 4) run_tiles<NusPack32>(s, job, items);
        else run_tiles<NusPack16>(s, job, items);
        x = y;
    }
    s.device_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

template <class Pack>
void CudaNussinovEngine::run_batch(Slot& s, const Job& job, std::span<const uint32_t> items_in) {
    using Cell = typename Pack::Cell;
    constexpr int bytes = sizeof(Cell);
    cudaStream_t st = s.stream->get();
    const auto& K = batch_kernels<Pack>();
    // Longest first, so that sequences of one blocks-per-multiprocessor
    // count are contiguous: each such class is one launch whose shared memory
    // fits its longest, all uploaded at once.
    std::vector<uint32_t> items(items_in.begin(), items_in.end());
    std::stable_sort(items.begin(), items.end(),
                     [&](uint32_t x, uint32_t y) { return job.seqs[x].size() > job.seqs[y].size(); });
    const size_t count = items.size();
    uint64_t code_bytes = 0, out_bytes = 0;
    std::vector<uint64_t> off(count), out_off(count);
    std::vector<uint32_t> len(count);
    for (size_t q = 0; q < count; ++q) {
        len[q] = static_cast<uint32_t>(job.seqs[items[q]].size());
        off[q] = code_bytes;
        out_off[q] = out_bytes;
        code_bytes += (len[q] + kCodeAlign - 1) / kCodeAlign * kCodeAlign;
        out_bytes += len[q];
    }
    std::vector<uint8_t> codes(code_bytes, 0);
    for (size_t q = 0; q < count; ++q) std::memcpy(codes.data() + off[q], job.seqs[items[q]].data(), len[q]);

    struct Class {
        size_t first = 0, count = 0;
        int threads = 0;                   // index into kNusBatchThreadChoices
        size_t smem = 0;                   // its longest sequence's tables
        uint64_t blocks = 0, stack_words = 0;
    };
    std::vector<Class> classes;
    for (size_t q = 0; q < count; ++q) {
        const int per_sm = batch_blocks_per_sm(len[q], bytes, s.prop);
        if (per_sm == 0)
            throw UsageError("gpu-nussinov: the batch tables of " + std::to_string(len[q]) + " bases exceed shared memory");
        const int threads = batch_thread_choice(per_sm);
        const size_t smem = batch_table_bytes(len[q], bytes);
        // One class per table size class: a longer sequence always has at
        // most the blocks of a shorter one.
        if (classes.empty() || batch_blocks_per_sm(len[classes.back().first], bytes, s.prop) != per_sm)
            classes.push_back(Class{q, 0, threads, smem, 0, job.with_structure ? 2 * (uint64_t{len[q]} + 2) : 0});
        ++classes.back().count;
    }

    // Memory plan: the traceback stacks take what the other buffers leave, up to half of what is free.
    const uint64_t free_bytes = device_memory().free;
    const uint64_t fixed = code_bytes + count * (2 * sizeof(uint64_t) + sizeof(uint32_t) + sizeof(int32_t)) +
                           (job.with_structure ? out_bytes : 0);
    const uint64_t budget = (free_bytes + s.scratch.size()) / 2;
    uint64_t stack_total = 0;
    for (Class& c : classes) {
        auto kernel = K[c.threads];
        // The card's limit, not this launch's need: slots on one device run
        // concurrently, and a smaller value set by another would fail this launch.
        WARPDP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(s.prop.sharedMemPerBlockOptin)));
        int per_sm = 0;
        WARPDP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kNusBatchThreadChoices[c.threads], c.smem));
        // Grid: as many blocks as fit the device at once, no more than sequences.
        c.blocks = std::min<uint64_t>(c.count, uint64_t(std::max(per_sm, 1)) * s.prop.multiProcessorCount);
        const uint64_t per_block = c.stack_words * sizeof(int32_t);
        if (fixed + per_block > budget)
            throw ResourceError("gpu-nussinov: GPU " + std::to_string(s.device) + " cannot hold a batch of " +
                                std::to_string(count) + " sequences (" + gib(fixed + per_block) + " needed, " +
                                gib(free_bytes) + " free)");
        if (per_block > 0) c.blocks = std::min<uint64_t>(c.blocks, (budget - fixed) / per_block);
        stack_total = std::max(stack_total, c.blocks * c.stack_words);  // launches run one after another
    }

    s.codes.reserve(std::max<uint64_t>(code_bytes, 16));
    s.off.reserve(count), s.out_off.reserve(count), s.len.reserve(count), s.score.reserve(count);
    if (job.with_structure) s.structure.reserve(std::max<uint64_t>(out_bytes, 1)), s.stack.reserve(std::max<uint64_t>(stack_total, 1));
    WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.codes.get(), codes.data(), code_bytes, cudaMemcpyHostToDevice, st));
    WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.off.get(), off.data(), count * sizeof(uint64_t), cudaMemcpyHostToDevice, st));
    WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.out_off.get(), out_off.data(), count * sizeof(uint64_t), cudaMemcpyHostToDevice, st));
    WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.len.get(), len.data(), count * sizeof(uint32_t), cudaMemcpyHostToDevice, st));

    WARPDP_CUDA_CHECK(cudaEventRecord(s.ev_start->get(), st));
    for (const Class& c : classes) {
        NusBatchParams<Cell> p;
        p.seqs = NusBatchSeqs{s.codes.get(), s.off.get() + c.first, s.len.get() + c.first, s.out_off.get() + c.first,
                              static_cast<uint32_t>(c.count)};
        p.rules = job.rules;
        p.stack = job.with_structure ? s.stack.get() : nullptr;
        p.stack_words = c.stack_words;
        p.score = s.score.get() + c.first;
        p.structure = job.with_structure ? s.structure.get() : nullptr;
        WARPDP_CUDA_CHECK_LAUNCH((K[c.threads]<<<static_cast<unsigned>(c.blocks), kNusBatchThreadChoices[c.threads],
                                                             c.smem, st>>>(p)));
        ++s.launches;
    }
    WARPDP_CUDA_CHECK(cudaEventRecord(s.ev_end->get(), st));
    std::vector<int32_t> score(count);
    std::string structure(job.with_structure ? out_bytes : 0, '\0');
    WARPDP_CUDA_CHECK(cudaMemcpyAsync(score.data(), s.score.get(), count * sizeof(int32_t), cudaMemcpyDeviceToHost, st));
    if (job.with_structure)
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(structure.data(), s.structure.get(), out_bytes, cudaMemcpyDeviceToHost, st));
    WARPDP_CUDA_CHECK(cudaStreamSynchronize(st));
    float ms = 0;
    WARPDP_CUDA_CHECK(cudaEventElapsedTime(&ms, s.ev_start->get(), s.ev_end->get()));
    s.kernel_ms += ms;
    for (size_t q = 0; q < count; ++q) {
        NussinovFold& f = job.out[items[q]];
        f = NussinovFold{};
        f.score = score[q];
        if (job.with_structure) {
            f.structure.assign(structure, out_off[q], len[q]);
            f.pairs = static_cast<uint64_t>(std::count(f.structure.begin(), f.structure.end(), '('));
        }
    }
}

template <class Pack>
void CudaNussinovEngine::run_tiles(Slot& s, const Job& job, std::span<const uint32_t> items) {
    using Cell = typename Pack::Cell;
    constexpr uint64_t B = kNusTile, tile_cells = B * B;
    cudaStream_t st = s.stream->get();
    const auto& K = kernels<Pack>();
    const int sms = s.prop.multiProcessorCount;
    const bool wide = sizeof(Cell) == 4;
    const int nb = static_cast<int>((job.seqs[items[0]].size() + B - 1) / B);
    const uint64_t span = uint64_t(nb) * B;
    const size_t tile_smem = nus_tile_smem_bytes<Pack>(), finish_smem = nus_finish_smem_bytes<Pack>();
    if (finish_smem > s.prop.sharedMemPerBlockOptin)
        throw ResourceError(std::string("gpu-nussinov: GPU ") + std::to_string(s.device) + " (" + s.prop.name + ") has " +
                            std::to_string(s.prop.sharedMemPerBlockOptin) + " bytes of shared memory a block; the " +
                            (wide ? "32" : "16") + "-bit tiled kernels need " + std::to_string(finish_smem));
    WARPDP_CUDA_CHECK(cudaFuncSetAttribute(K.diag, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(tile_smem)));
    WARPDP_CUDA_CHECK(cudaFuncSetAttribute(K.finish, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(finish_smem)));

    // As many sequences at once as the card holds (one always fits: run_slot
    // checked), within the grid's y limit.
    const uint64_t held = s.scratch.size() + s.partial.size() * sizeof(int32_t) + s.codes.size() +
                          s.stack.size() * sizeof(int32_t) + s.structure.size();
    const uint64_t avail = device_memory().budget(held);
    uint64_t chunk = std::min<uint64_t>(items.size(), 65535);
    while (chunk > 1 && plan_tiles(nb, wide, sms, chunk).bytes > avail) chunk = chunk * 3 / 4;

    for (size_t first = 0; first < items.size(); first += chunk) {
        const uint64_t count = std::min<uint64_t>(chunk, items.size() - first);
        const LongPlan plan = plan_tiles(nb, wide, sms, count);
        const uint64_t seq_cells = plan.tiles * tile_cells;
        try {
            if (s.scratch.size() < plan.table_bytes) {
                s.scratch.reset(0);
                s.scratch.reset(plan.table_bytes);
            }
            s.partial.reserve(std::max<uint64_t>(count * plan.partial_cells, 1));
            s.codes.reserve(count * span);
            s.len.reserve(count), s.score.reserve(count);
            if (job.with_structure) s.structure.reserve(count * span), s.stack.reserve(count * 2 * (span + 2));
        } catch (const ResourceError&) {
            static_cast<void>(cudaGetLastError());
            s.scratch.reset(0);
            s.partial.reset(0);
            const uint64_t now = device_memory().budget();
            throw ResourceError("gpu-nussinov: " + std::to_string(count) + " sequence(s) of " + std::to_string(span) +
                                " padded bases need " + gib(plan.bytes) + " on GPU " + std::to_string(s.device) + " (" +
                                s.prop.name + "), which could not be allocated; the longest this card can fold now is " +
                                std::to_string(longest_fitting(now, job.max_w, sms)) + " bases");
        }
        std::vector<uint8_t> codes(count * span, static_cast<uint8_t>(kNusCodeOther));
        std::vector<uint32_t> len(count);
        for (uint64_t q = 0; q < count; ++q) {
            const auto seq = job.seqs[items[first + q]];
            std::memcpy(codes.data() + q * span, seq.data(), seq.size());
            len[q] = static_cast<uint32_t>(seq.size());
        }
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.codes.get(), codes.data(), codes.size(), cudaMemcpyHostToDevice, st));
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(s.len.get(), len.data(), count * sizeof(uint32_t), cudaMemcpyHostToDevice, st));

        NusLongParams<Cell> p;
        p.U = reinterpret_cast<Cell*>(s.scratch.get());
        p.V = p.U + count * seq_cells;
        p.partial = s.partial.get();
        p.codes = s.codes.get();
        p.rules = job.rules;
        p.nb = nb;
        p.seq_cells = seq_cells;
        p.partial_cells = plan.partial_cells;
        const auto grid = [&](uint64_t x) { return dim3(static_cast<unsigned>(x), static_cast<unsigned>(count)); };
        WARPDP_CUDA_CHECK(cudaEventRecord(s.ev_start->get(), st));
        p.d = 0;
        p.splits = 0;
        WARPDP_CUDA_CHECK_LAUNCH((K.diag<<<grid(nb), kNusDiagThreads, tile_smem, st>>>(p)));
        ++s.launches;
        for (int d = 1; d < nb; ++d) {
            p.d = d;
            p.splits = product_splits(nb, d, sms, count);
            if (p.splits > 0) {
                WARPDP_CUDA_CHECK_LAUNCH((K.product<<<grid(uint64_t(nb - d) * p.splits), kNusProductThreads, 0, st>>>(p)));
                ++s.launches;
            }
            WARPDP_CUDA_CHECK_LAUNCH((K.finish<<<grid(nb - d), kNusFinishThreads, finish_smem, st>>>(p)));
            ++s.launches;
        }
        // Scores, and structures when asked, by a warp a sequence.
        WARPDP_CUDA_CHECK(cudaEventRecord(s.ev_trace->get(), st));
        NusTilesTraceParams<Cell> t;
        t.U = p.U;
        t.V = p.V;
        t.seq_cells = seq_cells;
        t.codes = s.codes.get();
        t.nb = nb;
        t.len = s.len.get();
        t.count = static_cast<uint32_t>(count);
        t.rules = job.rules;
        t.score = s.score.get();
        t.structure = job.with_structure ? s.structure.get() : nullptr;
        t.stack = job.with_structure ? s.stack.get() : nullptr;
        const unsigned blocks = static_cast<unsigned>((count + kNusTraceWarps - 1) / kNusTraceWarps);
        WARPDP_CUDA_CHECK_LAUNCH((nus_tiles_trace_kernel<Cell><<<blocks, 32 * kNusTraceWarps, 0, st>>>(t)));
        ++s.launches;
        WARPDP_CUDA_CHECK(cudaEventRecord(s.ev_end->get(), st));

        std::vector<int32_t> score(count);
        std::string structure(job.with_structure ? count * span : 0, '\0');
        WARPDP_CUDA_CHECK(cudaMemcpyAsync(score.data(), s.score.get(), count * sizeof(int32_t), cudaMemcpyDeviceToHost, st));
        if (job.with_structure)  // one copy (a lone sequence's padding left out)
            WARPDP_CUDA_CHECK(cudaMemcpyAsync(structure.data(), s.structure.get(), count == 1 ? len[0] : structure.size(),
                                              cudaMemcpyDeviceToHost, st));
        WARPDP_CUDA_CHECK(cudaStreamSynchronize(st));
        for (uint64_t q = 0; q < count; ++q) {
            NussinovFold& f = job.out[items[first + q]];
            f = NussinovFold{};
            f.score = score[q];
            if (job.with_structure) {
                f.structure.assign(structure, q * span, len[q]);
                f.pairs = static_cast<uint64_t>(std::count(f.structure.begin(), f.structure.end(), '('));
            }
        }
        float ms = 0, trace_ms = 0;
        WARPDP_CUDA_CHECK(cudaEventElapsedTime(&ms, s.ev_start->get(), s.ev_end->get()));
        WARPDP_CUDA_CHECK(cudaEventElapsedTime(&trace_ms, s.ev_trace->get(), s.ev_end->get()));
        s.kernel_ms += ms;
        s.traceback_ms += trace_ms;
    }
}

}  // namespace

std::unique_ptr<NussinovCudaEngine> make_nussinov_cuda_engine_ex(const std::vector<int>& devices) {
    return std::make_unique<CudaNussinovEngine>(devices);
}

std::unique_ptr<NussinovEngine> make_nussinov_cuda_engine(const std::vector<int>& devices) {
    return make_nussinov_cuda_engine_ex(devices);
}

std::vector<std::string> nussinov_cuda_variants() {
    std::vector<std::string> names;
    for (const auto& v : kVariants) names.push_back(v.name);
    return names;
}

uint32_t nussinov_cuda_shared_batch_max_length(int device, int max_weight) {
    const auto limits = nussinov_cuda_batch_class_limits(device, max_weight);
    return limits.empty() ? 0 : limits.front();
}

std::vector<uint32_t> nussinov_cuda_batch_class_limits(int device, int max_weight) {
    const auto props = open_devices({device}, "gpu-nussinov");
    std::vector<uint32_t> limits;
    int last = -1;
    for (uint32_t n = kBatchMaxLength; n >= 2; --n) {
        const int per_sm = batch_blocks_per_sm(n, cell_bytes(n, std::max(max_weight, 1)), props[0]);
        if (per_sm != 0 && per_sm != last) limits.push_back(n);
        if (per_sm != 0) last = per_sm;
    }
    return limits;
}

uint64_t nussinov_cuda_max_length(int device, int max_weight) {
    const auto props = open_devices({device}, "gpu-nussinov");
    DeviceGuard guard(device);
    return longest_fitting(device_memory().budget(), std::max(max_weight, 1), props[0].multiProcessorCount);
}

}  // namespace warpdp
