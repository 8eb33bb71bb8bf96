// The CPU engine of gpu-nussinov (docs/nussinov.md §6-§7): each sequence,
// padded to a multiple of the tile with bases that never pair, gets an
// upper-triangle table whose rows start at 16-aligned columns; its tiles are
// filled anti-diagonal by anti-diagonal by one variant's tile kernel, then
// the shared traceback (nussinov_traceback.hpp) reads the structure.
#include "core/nussinov/nussinov_cpu.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "core/base/errors.hpp"
#include "core/base/huge_pages.hpp"
#include "core/base/parallel.hpp"
#include "core/nussinov/nussinov_traceback.hpp"

namespace warpdp {

namespace {

using nussinov_tiles::kColumnAlign;
using nussinov_tiles::TileJob;

constexpr NussinovCpuVariant kVariants[] = {
#if defined(__x86_64__)
    {"nussinov_tiles_avx2", CpuIsa::avx2, {nussinov_tiles::tile_i16_avx2, nussinov_tiles::tile_i32_avx2}},
#endif
    {"nussinov_tiles_base", CpuIsa::base, {nussinov_tiles::tile_i16_base, nussinov_tiles::tile_i32_base}},
};

// Short sequences take small tiles, so that padding adds little work; long
// ones 64, where the bulk's register tiles run long and the rows pushed
// inside a tile stay in the L1 cache.
uint32_t tile_for(uint64_t n, uint32_t tile) {
    if (tile != 0) return tile;
    return n <= 64 ? 16 : n <= 256 ? 32 : 64;
}

uint64_t padded(uint64_t n, uint32_t tile) { return (n + tile - 1) / tile * tile; }

int64_t max_weight(const NussinovParams& p) { return std::max({p.w_gc, p.w_au, p.gu ? p.w_gu : 0}); }

// The largest score (and split sum) of any interval, docs/nussinov.md §5.
uint64_t score_bound(uint64_t n, const NussinovParams& p) { return n / 2 * static_cast<uint64_t>(max_weight(p)); }

// Cells of an N x N upper triangle whose rows start at their diagonal
// rounded down to a multiple of 16 (N a multiple of 16): row i holds
// N - 16 floor(i / 16) cells.
uint64_t table_cells(uint64_t N) {
    const uint64_t m = N / kColumnAlign;
    return N * N - kColumnAlign * kColumnAlign * (m * (m - 1) / 2);
}

// What `ulimit -v` or `-d` leaves this process beyond what it maps now
// (/proc/self/statm: all pages, and data + stack pages); the largest
// value when neither is set. A table past it would fail to allocate.
uint64_t address_limit_room(uint64_t page) {
    unsigned long long v[6] = {};  // size resident shared text lib data
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6)
            v[0] = v[5] = 0;
        std::fclose(f);
    }
    const uint64_t size = v[0], data = v[5];
    uint64_t room = std::numeric_limits<uint64_t>::max();
    for (const auto& [resource, used] : {std::pair{RLIMIT_AS, size * page}, std::pair{RLIMIT_DATA, data * page}}) {
        rlimit r{};
        if (getrlimit(resource, &r) != 0 || r.rlim_cur == RLIM_INFINITY) continue;
        room = std::min<uint64_t>(room, r.rlim_cur > used ? r.rlim_cur - used : 0);
    }
    return room;
}

std::string gib(uint64_t bytes) {
    char s[32];
    std::snprintf(s, sizeof s, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
    return s;
}

// A 64-byte aligned allocation that only grows, reused from sequence to sequence.
class Buffer {
public:
    Buffer() = default;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() { release(); }
    void* get(uint64_t bytes) {
        if (bytes > bytes_) {
            release();
            try {
                p_ = ::operator new(static_cast<size_t>(bytes), std::align_val_t{64});
            } catch (const std::bad_alloc&) {
                throw ResourceError("cannot allocate " + gib(bytes) + " for its Nussinov table");
            }
            bytes_ = bytes;
            if (bytes >= (uint64_t{64} << 20)) advise_huge_pages(p_, static_cast<size_t>(bytes));
        }
        return p_;
    }

private:
    void release() noexcept {
        if (p_ != nullptr) ::operator delete(p_, std::align_val_t{64});
        p_ = nullptr;
        bytes_ = 0;
    }
    void* p_ = nullptr;
    uint64_t bytes_ = 0;
};

// What one sequence in flight owns.
struct Work {
    Buffer cells, scratch;
    std::vector<uint64_t> row_off;
    std::vector<uint8_t> codes;
};

class NussinovCpuEngine final : public NussinovEngine {
public:
    NussinovCpuEngine(const NussinovCpuOptions& opt, const NussinovCpuVariant& v)
        : opt_(opt), variant_(v) {
        require_supported(v);
        opt_.threads = std::max(opt_.threads, 1u);
        if (opt_.tile != 0 && (opt_.tile % kColumnAlign != 0 || opt_.tile > 1024))
            throw std::invalid_argument("Nussinov tile must be a multiple of 16 up to 1024");
    }
    std::string name() const override {
        return std::string("cpu-") + cpu_isa_name(variant_.isa) + "-x" + std::to_string(opt_.threads);
    }
    void fold(std::span<const std::span<const uint8_t>> seqs, const NussinovParams& p, bool with_structure,
              std::span<NussinovFold> out) override;

private:
    template <class T>
    NussinovFold fold_one(std::span<const uint8_t> codes, const NussinovParams& p, bool with_structure, Work& w,
                          unsigned threads) const;
    NussinovFold fold_any(std::span<const uint8_t> codes, const NussinovParams& p, bool with_structure, Work& w,
                          unsigned threads) const {
        if (nussinov_fits_int16(codes.size(), p) && !opt_.force_int32)
            return fold_one<int16_t>(codes, p, with_structure, w, threads);
        return fold_one<int32_t>(codes, p, with_structure, w, threads);
    }
    NussinovCpuOptions opt_;
    NussinovCpuVariant variant_;  // a copy: the caller's need not outlive the engine
};

template <class T>
NussinovFold NussinovCpuEngine::fold_one(std::span<const uint8_t> codes, const NussinovParams& p,
                                         bool with_structure, Work& w, unsigned threads) const {
    const uint64_t n = codes.size();
    if (n == 0) return {};
    const uint32_t B = tile_for(n, opt_.tile);
    const uint64_t N = padded(n, B);
    w.codes.assign(codes.begin(), codes.end());
    w.codes.resize(N, kRnaOther);  // padding never pairs, so no cell of the sequence changes
    w.row_off.resize(N);
    uint64_t start = 0;
    for (uint64_t i = 0; i < N; ++i) {
        const uint64_t first = i / kColumnAlign * kColumnAlign;
        w.row_off[i] = start - first;
        start += N - first;
    }
    T* cells = static_cast<T*>(w.cells.get(start * sizeof(T)));
    // The cells left of the diagonal are read by the pushes' first vector
    // (nussinov_tiles_kernel_impl.hpp) and must hold 0.
    for (uint64_t i = 0; i < N; ++i) {
        const uint64_t first = i / kColumnAlign * kColumnAlign;
        std::fill(cells + w.row_off[i] + first, cells + w.row_off[i] + i, T{0});
    }
    int32_t weight[25];
    for (uint8_t a = 0; a < 5; ++a)
        for (uint8_t b = 0; b < 5; ++b) weight[5 * a + b] = p.weight(a, b);
    const uint64_t nb = N / B;
    const uint64_t stride = ((uint64_t{B} * B + B) * sizeof(T) + 63) & ~uint64_t{63};
    const unsigned workers = parallel_workers(nb, threads, 1);
    auto* scratch = static_cast<unsigned char*>(w.scratch.get(stride * std::max(workers, 1u)));
    TileJob job;
    job.cells = cells;
    job.row_off = w.row_off.data();
    job.codes = w.codes.data();
    job.weight = weight;
    job.min_loop = p.min_loop;
    job.tile = B;
    const auto kernel = sizeof(T) == 2 ? variant_.kernels.tile_i16 : variant_.kernels.tile_i32;
    for (uint64_t d = 0; d < nb; ++d) {
        parallel_for_workers(nb - d, threads, 1, [&](unsigned wk, size_t t) {
            TileJob jt = job;
            jt.i0 = t * B;
            jt.j0 = (t + d) * B;
            jt.scratch = scratch + wk * stride;
            kernel(jt);
        });
    }
    auto cell = [cells, &w](int64_t i, int64_t j) -> int64_t {
        return cells[w.row_off[static_cast<size_t>(i)] + static_cast<uint64_t>(j)];
    };
    if (!with_structure) {
        NussinovFold f;
        f.score = cell(0, static_cast<int64_t>(n) - 1);
        return f;
    }
    return nussinov_traceback(codes, p, cell);
}

void NussinovCpuEngine::fold(std::span<const std::span<const uint8_t>> seqs, const NussinovParams& p,
                             bool with_structure, std::span<NussinovFold> out) {
    const uint64_t budget = opt_.memory_bytes ? opt_.memory_bytes : nussinov_cpu_memory_budget();
    std::vector<size_t> longs, shorts;
    for (size_t s = 0; s < seqs.size(); ++s) {
        const uint64_t n = seqs[s].size();
        if (score_bound(n, p) > static_cast<uint64_t>(std::numeric_limits<int32_t>::max()))
            throw NussinovSequenceError(s, "a sequence of " + std::to_string(n) + " bases with pair weights up to " +
                                std::to_string(max_weight(p)) + " may score past 2^31 - 1, beyond the CPU engine's cells");
        const uint64_t bytes = nussinov_cpu_table_bytes(n, p, opt_.tile);
        if (bytes > budget)
            throw NussinovSequenceError(s, "a sequence of " + std::to_string(n) + " bases needs " + gib(bytes) +
                                " for the CPU engine's table, more than the " + gib(budget) +
                                " it may take here: sequences up to " +
                                std::to_string(nussinov_cpu_max_length(p, budget, opt_.tile)) + " bases fit");
        (n >= opt_.long_from ? longs : shorts).push_back(s);
    }
    // Threads over the tiles of one long sequence idle at the ends of every
    // anti-diagonal: when there are long sequences enough for every thread,
    // and their tables fit side by side, a thread each folds more.
    uint64_t widest = 0;
    for (size_t s : longs) widest = std::max(widest, nussinov_cpu_table_bytes(seqs[s].size(), p, opt_.tile));
    if (opt_.threads > 1 && longs.size() >= opt_.threads && widest * opt_.threads <= budget) {
        shorts.insert(shorts.begin(), longs.begin(), longs.end());  // the longest start first
        longs.clear();
    }
    // The plan fits, but an allocation may still fail (a limit it cannot see).
    const auto fold_or_refuse = [&](size_t s, Work& w, unsigned threads) {
        try {
            out[s] = fold_any(seqs[s], p, with_structure, w, threads);
        } catch (const ResourceError& e) {
            throw NussinovSequenceError(s, e.what());
        } catch (const std::bad_alloc&) {
            throw NussinovSequenceError(s, "out of memory folding a sequence of " + std::to_string(seqs[s].size()) +
                                               " bases");
        }
    };
    if (!shorts.empty()) {
        std::vector<Work> work(parallel_workers(shorts.size(), opt_.threads, 1));
        parallel_for_workers(shorts.size(), opt_.threads, 1,
                             [&](unsigned wk, size_t t) { fold_or_refuse(shorts[t], work[wk], 1); });
    }
    Work w;
    for (size_t s : longs) fold_or_refuse(s, w, opt_.threads);
}

}  // namespace

std::span<const NussinovCpuVariant> nussinov_cpu_variants() { return kVariants; }

bool nussinov_fits_int16(uint64_t n, const NussinovParams& p) {
    return score_bound(n, p) <= static_cast<uint64_t>(std::numeric_limits<int16_t>::max());
}

uint64_t nussinov_cpu_table_bytes(uint64_t n, const NussinovParams& p, uint32_t tile) {
    if (n == 0) return 0;
    const uint64_t N = padded(n, tile_for(n, tile));
    const uint64_t cell = nussinov_fits_int16(n, p) ? 2 : 4;
    return table_cells(N) * cell + N * (sizeof(uint64_t) + 1);
}

uint64_t nussinov_cpu_memory_budget() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page <= 0) return uint64_t{1} << 32;  // unknown: 4 GiB
    const uint64_t physical = static_cast<uint64_t>(pages) / 10 * 8 * static_cast<uint64_t>(page);
    return std::min(physical, address_limit_room(static_cast<uint64_t>(page)) / 10 * 8);
}

uint64_t nussinov_cpu_max_length(const NussinovParams& p, uint64_t bytes, uint32_t tile) {
    uint64_t lo = 0, hi = uint64_t{1} << 32;  // table_bytes(lo) <= bytes < table_bytes(hi)
    while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        (nussinov_cpu_table_bytes(mid, p, tile) <= bytes ? lo : hi) = mid;
    }
    return lo;
}

std::unique_ptr<NussinovEngine> make_nussinov_cpu_engine(const NussinovCpuOptions& opt, const NussinovCpuVariant& v) {
    return std::make_unique<NussinovCpuEngine>(opt, v);
}

std::unique_ptr<NussinovEngine> make_nussinov_cpu_engine(unsigned threads, const NussinovCpuVariant& v) {
    NussinovCpuOptions opt;
    opt.threads = threads;
    return make_nussinov_cpu_engine(opt, v);
}

std::unique_ptr<NussinovEngine> make_nussinov_cpu_engine(unsigned threads) {
    return make_nussinov_cpu_engine(threads, choose_variant<nussinov_cpu_variants>());
}

}  // namespace warpdp
