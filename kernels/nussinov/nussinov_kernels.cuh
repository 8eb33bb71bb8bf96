// gpu-nussinov's CUDA kernels: the batch shape (a block per short sequence,
// tables in shared memory) and the tiled shape (longer sequences, tile
// diagonal after tile diagonal), in 16-bit DPX lanes or 32-bit cells, with
// the GPU traceback. Kernels only compute: device pointers, sizes and a
// parameter struct in, tables, scores and dot-bracket strings out;
// nussinov_cuda.cu plans memory, picks instances and launches. Layouts and
// why they are exact: docs/nussinov.md §10.1.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace warpdp::cuda {

inline constexpr int kNusTile = 128;             // long shape: tile edge B
inline constexpr int kNusProductThreads = 256;   // 16 x 16 threads, 8 x 8 cells each
inline constexpr int kNusDiagThreads = 256;
// The finish step is a 255-step wavefront per tile whose cells each take up
// to 254 split terms: more threads per cell shorten every step's serial
// chain, and that chain, not the arithmetic, sets the step's time
// (docs/benchmarks.md).
inline constexpr int kNusFinishThreads = 512;
// Block sizes of the batch kernel: the host picks one per launch so that the
// blocks that fit a multiprocessor's shared memory bring >= 1,024 threads
// (docs/nussinov.md §10.2).
inline constexpr int kNusBatchThreadChoices[] = {256, 512, 1024};
inline constexpr int kNusStageWords = 8;         // product: 32-bit words of k per shared-memory stage
inline constexpr int kNusStagePitch = kNusTile + 4;  // words; keeps the transposing stores conflict-free
inline constexpr int kNusCodeOther = 4;

// 8-bit cells (batch shape only, scores up to 255): a word holds four
// consecutive k, widened to two u16x2 pairs by byte permutes for the DPX
// step (sums up to 510 fit a 16-bit lane), so a shared-memory load brings
// twice the k of 16-bit cells and a table takes half the bytes.
struct NusPack8 {
    using Cell = uint8_t;
    static constexpr int kPerWord = 4;
    static constexpr int kAlign = 4;  // batch table rows start and end on whole words
    __device__ static uint32_t step(uint32_t a, uint32_t b, uint32_t acc) {
        acc = __viaddmax_u16x2(__byte_perm(a, 0u, 0x4140), __byte_perm(b, 0u, 0x4140), acc);  // k, k+1
        return __viaddmax_u16x2(__byte_perm(a, 0u, 0x4342), __byte_perm(b, 0u, 0x4342), acc);  // k+2, k+3
    }
    __device__ static int reduce(uint32_t acc) { return max(static_cast<int>(acc & 0xffffu), static_cast<int>(acc >> 16)); }
};

// 16-bit cells: a 32-bit word holds two consecutive k.
struct NusPack16 {
    using Cell = uint16_t;
    static constexpr int kPerWord = 2;
    static constexpr int kAlign = 2;
    static constexpr int kTilePitch = kNusTile + 2;  // cells of a shared tile row: rows one bank apart
    __device__ static uint32_t step(uint32_t a, uint32_t b, uint32_t acc) { return __viaddmax_u16x2(a, b, acc); }
    __device__ static int reduce(uint32_t acc) { return max(static_cast<int>(acc & 0xffffu), static_cast<int>(acc >> 16)); }
};

// 32-bit cells: a word is one k.
struct NusPack32 {
    using Cell = int32_t;
    static constexpr int kPerWord = 1;
    static constexpr int kAlign = 2;
    static constexpr int kTilePitch = kNusTile + 1;
    __device__ static uint32_t step(uint32_t a, uint32_t b, uint32_t acc) {
        return static_cast<uint32_t>(__viaddmax_s32(static_cast<int>(a), static_cast<int>(b), static_cast<int>(acc)));
    }
    __device__ static int reduce(uint32_t acc) { return static_cast<int>(acc); }
};

// Pair weights of codes a, b (0..4): w[a * 5 + b], -1 where they may not pair.
struct NusRules {
    int min_loop = 1;
    int w[25] = {};
    bool zero_means_unpaired = false;  // every allowed pair weighs > 0 (the traceback's shortcut)
};

__device__ __forceinline__ int nus_pair_weight(const NusRules& R, int a, int b) { return R.w[a * 5 + b]; }

// The largest power of two <= x (x >= 1), capped at 32: threads per cell.
__device__ __forceinline__ int nus_group_size(int threads, int cells) {
    const int q = max(1, threads / max(cells, 1));
    const int p = 1 << (31 - __clz(q));
    return min(p, 32);
}

__device__ __forceinline__ int nus_group_max(int v, int g) {
    for (int off = g >> 1; off > 0; off >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
}

// The smallest k in [i, j) with C(i,k) + C(k+1,j) = cij (t.split_sum), or j
// when there is none: 32 * kNusSplitWidth candidates an iteration, their
// loads issued before any ballot so that one memory latency covers them all.
inline constexpr int kNusSplitWidth = 4;

template <class Table>
__device__ uint32_t nus_warp_split(const Table& t, uint32_t i, uint32_t j, int cij, int lane) {
    for (uint32_t k0 = i; k0 < j; k0 += 32 * kNusSplitWidth) {
        int sum[kNusSplitWidth];
#pragma unroll
        for (int w = 0; w < kNusSplitWidth; ++w) {
            const uint32_t k = k0 + 32 * w + static_cast<uint32_t>(lane);
            sum[w] = k < j ? t.split_sum(i, k, j) : -1;  // every C >= 0: -1 never matches
        }
#pragma unroll
        for (int w = 0; w < kNusSplitWidth; ++w) {
            const unsigned ball = __ballot_sync(0xffffffffu, sum[w] == cij);
            if (ball) return k0 + 32 * w + static_cast<uint32_t>(__ffs(static_cast<int>(ball)) - 1);
        }
    }
    return j;
}

// The traceback rule (docs/nussinov.md §4) walked by one warp on a finished
// table `t` (t.C(i, j): 0 unless i < j): pair (i,j) when allowed and
// C(i,j) = C(i+1,j-1) + w, else split at the smallest k. The interval being
// resolved lives in registers (the same in every lane); a split at k = i
// continues as (i+1, j) and any other split waits on the stack with its
// right part, as the host's rule does, and an interval of score 0 is all
// unpaired when every allowed pair weighs > 0. The stack holds disjoint
// intervals: L + 2 entries (2 (L + 2) words) suffice.
template <class Table>
__device__ void nus_warp_traceback(const Table& t, const uint8_t* a, uint32_t L, const NusRules& R, char* out,
                                   int32_t* stack, int lane) {
    for (uint32_t x = lane; x < L; x += 32) out[x] = '.';
    __syncwarp();
    uint32_t i = 0, j = L - 1;
    int sp = 0;
    for (;;) {
        if (i < j) {
            const int cij = t.C(i, j);
            if (cij != 0 || !R.zero_means_unpaired) {
                const int w = nus_pair_weight(R, a[i], a[j]);
                if (w >= 0 && static_cast<int>(j - i) - 1 >= R.min_loop && cij == t.C(i + 1, j - 1) + w) {
                    if (lane == 0) out[i] = '(', out[j] = ')';
                    ++i, --j;
                    continue;
                }
                const uint32_t ks = nus_warp_split(t, i, j, cij, lane);
                if (ks == i) {
                    ++i;
                    continue;
                }
                if (ks < j) {  // (ks == j cannot happen: the table is a fixed point of the recurrence)
                    if (lane == 0) stack[2 * sp] = static_cast<int32_t>(ks + 1), stack[2 * sp + 1] = static_cast<int32_t>(j);
                    ++sp;
                    j = ks;
                    continue;
                }
            }
        }
        if (sp == 0) break;
        __syncwarp();  // lane 0's push is visible
        --sp;
        i = static_cast<uint32_t>(stack[2 * sp]), j = static_cast<uint32_t>(stack[2 * sp + 1]);
        __syncwarp();  // every lane has read the slot before lane 0 reuses it
    }
}

// ---------------------------------------------------------------------------
// Batch shape.

struct NusBatchSeqs {
    const uint8_t* codes = nullptr;    // all sequences, each starting 16-byte aligned
    const uint64_t* off = nullptr;     // start of sequence q of the launch in codes
    const uint32_t* len = nullptr;     // its length (>= 2)
    const uint64_t* out_off = nullptr; // where its dot-bracket goes in structure
    uint32_t count = 0;
};

template <class Cell>
struct NusBatchParams {
    NusBatchSeqs seqs;
    NusRules rules;
    int32_t* stack = nullptr;        // traceback stacks: stack_words per block
    uint64_t stack_words = 0;
    int32_t* score = nullptr;        // per sequence of the launch
    char* structure = nullptr;       // nullptr: scores only
};

// Triangle packing of one sequence's tables, rows aligned to A cells (2
// for 16- and 32-bit cells, 4 for 8-bit: whole words in both tables). lq =
// length rounded up to A; U row i holds k in [i & ~(A-1), lq), V row j holds
// k in [0, j | (A-1)].
template <int A>
__host__ __device__ __forceinline__ uint64_t nus_round_len(uint32_t len) { return (uint64_t{len} + A - 1) / A * A; }
// Rows before row i = A m + r: m whole groups of A rows of lq - A m' cells
// each, then r rows of lq - A m (m (m - 1) is even, and 0 for m = 0). In
// 32 bits: a table in shared memory has far fewer than 2^32 cells.
template <int A>
__device__ __forceinline__ uint32_t nus_u_row(uint32_t i, uint32_t lq) {
    const uint32_t m = i / A, r = i % A;
    return A * m * lq - A * A * (m * (m - 1) / 2) + r * (lq - A * m);
}
template <int A>
__device__ __forceinline__ uint32_t nus_v_row(uint32_t j) {
    const uint32_t m = j / A, r = j % A;
    return A * A * (m * (m + 1) / 2) + r * A * (m + 1);
}
template <int A>
__host__ __device__ __forceinline__ uint64_t nus_u_cells(uint32_t lq) {
    const uint64_t q = lq / A;
    return A * q * lq - uint64_t{A} * A * (q * (q - 1) / 2);
}
template <int A>
__host__ __device__ __forceinline__ uint64_t nus_v_cells(uint32_t lq) {
    const uint64_t q = lq / A;
    return uint64_t{A} * A * (q * (q + 1) / 2);
}
template <int A>
__host__ __device__ __forceinline__ uint64_t nus_batch_table_cells(uint32_t len) {
    const uint32_t lq = static_cast<uint32_t>(nus_round_len<A>(len));
    return nus_u_cells<A>(lq) + nus_v_cells<A>(lq) + 16;  // + 16: keeps the next table 16-byte aligned
}

template <class Pack>
struct NusBatchTable {
    using Cell = typename Pack::Cell;
    Cell* u;
    Cell* v;
    uint32_t lq;
    static constexpr int A = Pack::kAlign;
    __device__ Cell* U(uint32_t i, uint32_t k) const { return u + nus_u_row<A>(i, lq) + (k - (i & ~uint32_t(A - 1))); }
    __device__ Cell* V(uint32_t j, uint32_t k) const { return v + nus_v_row<A>(j) + k; }
    __device__ int C(uint32_t i, uint32_t j) const { return i < j ? static_cast<int>(*U(i, j)) : 0; }
    // C(i,k) + C(k+1,j) for i <= k < j, both along rows: U(i,i) and
    // V(j,j-1) are never stored and stay 0, as C is on those intervals.
    __device__ int split_sum(uint32_t i, uint32_t k, uint32_t j) const {
        return static_cast<int>(*U(i, k)) + static_cast<int>(*V(j, k));
    }
};

// Registers for 1,536 threads a multiprocessor at 256 and 512 a block (42
// each: 32, enough for 2,048, spills), all of them at 1,024.
template <class Pack, int Threads>
__global__ void __launch_bounds__(Threads, 1536 / Threads)
nus_batch_kernel(NusBatchParams<typename Pack::Cell> p) {
    using Cell = typename Pack::Cell;
    extern __shared__ __align__(16) unsigned char nus_smem[];
    const int tid = threadIdx.x;
    const NusRules& R = p.rules;
    for (uint32_t q = blockIdx.x; q < p.seqs.count; q += gridDim.x) {
        const uint32_t L = p.seqs.len[q];
        const uint8_t* a = p.seqs.codes + p.seqs.off[q];
        constexpr int A = Pack::kAlign;
        const uint32_t lq = static_cast<uint32_t>(nus_round_len<A>(L));
        Cell* base = reinterpret_cast<Cell*>(nus_smem);
        NusBatchTable<Pack> t{base, base + nus_u_cells<A>(lq), lq};
        const uint64_t total = nus_u_cells<A>(lq) + nus_v_cells<A>(lq);
        __syncthreads();  // the previous sequence's traceback is done with the table
        for (uint64_t x = tid; x < total; x += Threads) base[x] = 0;
        __syncthreads();
        for (uint32_t d = 1; d < L; ++d) {
            const int m = static_cast<int>(L - d);
            const int g = nus_group_size(Threads, m);
            const int groups = Threads / g, grp = tid / g, h = tid % g;
            const int rounds = (m + groups - 1) / groups;
            for (int rd = 0; rd < rounds; ++rd) {
                const int cell = grp + rd * groups;
                const bool live = cell < m;
                const uint32_t i = live ? static_cast<uint32_t>(cell) : 0u, j = i + d;
                int best = 0;
                if (live) {
                    constexpr uint32_t P = Pack::kPerWord;
                    const uint32_t i0 = P > 1 ? (i & ~(P - 1)) : i;
                    const uint32_t kend = P > 1 ? ((j - 1) | (P - 1)) : j - 1;
                    const int words = static_cast<int>((kend - i0 + 1) / Pack::kPerWord);
                    const uint32_t* uw = reinterpret_cast<const uint32_t*>(t.U(i, i0));
                    const uint32_t* vw = reinterpret_cast<const uint32_t*>(t.V(j, i0));
                    // Two chains of steps, so that one's loads overlap the other's (max is order-free).
                    uint32_t acc0 = 0, acc1 = 0;
                    int w = h;
                    for (; w + g < words; w += 2 * g) {
                        acc0 = Pack::step(uw[w], vw[w], acc0);
                        acc1 = Pack::step(uw[w + g], vw[w + g], acc1);
                    }
                    if (w < words) acc0 = Pack::step(uw[w], vw[w], acc0);
                    best = max(Pack::reduce(acc0), Pack::reduce(acc1));
                }
                best = nus_group_max(best, g);
                if (live && h == 0) {
                    const int w = nus_pair_weight(R, a[i], a[j]);
                    if (w >= 0 && static_cast<int>(d) - 1 >= R.min_loop) best = max(best, (d >= 2 ? t.C(i + 1, j - 1) : 0) + w);
                    *t.U(i, j) = static_cast<Cell>(best);
                    if (i >= 1) *t.V(j, i - 1) = static_cast<Cell>(best);
                }
            }
            __syncthreads();
        }
        if (tid == 0) p.score[q] = t.C(0, L - 1);
        if (p.structure == nullptr || tid >= 32) continue;
        nus_warp_traceback(t, a, L, R, p.structure + p.seqs.out_off[q], p.stack + uint64_t{blockIdx.x} * p.stack_words, tid);
    }
}

// ---------------------------------------------------------------------------
// Long shape.

__host__ __device__ __forceinline__ uint64_t nus_tri(uint64_t lo, uint64_t hi) { return hi * (hi + 1) / 2 + lo; }

template <class Cell>
struct NusLongParams {
    Cell* U = nullptr;
    Cell* V = nullptr;
    int32_t* partial = nullptr;   // [split][tile of the diagonal][B][B]
    const uint8_t* codes = nullptr;  // nb * B codes, padding kNusCodeOther
    NusRules rules;
    int nb = 0;       // tiles per side
    int d = 0;        // the tile diagonal of this launch
    int splits = 0;   // product blocks per tile (0: no product on this diagonal)
    // Several sequences of nb tiles a side at once, sequence blockIdx.y: its
    // U and V start seq_cells into theirs, its partials partial_cells into
    // partial, its codes nb * B into codes.
    uint64_t seq_cells = 0;
    uint64_t partial_cells = 0;
};

template <class Cell>
__device__ __forceinline__ Cell* nus_u_tile(const NusLongParams<Cell>& p, int I, int J) {
    return p.U + blockIdx.y * p.seq_cells + nus_tri(static_cast<uint64_t>(I), static_cast<uint64_t>(J)) * (kNusTile * kNusTile);
}
template <class Cell>
__device__ __forceinline__ Cell* nus_v_tile(const NusLongParams<Cell>& p, int J, int K) {
    return p.V + blockIdx.y * p.seq_cells + nus_tri(static_cast<uint64_t>(K), static_cast<uint64_t>(J)) * (kNusTile * kNusTile);
}
template <class Cell>
__device__ __forceinline__ const uint8_t* nus_codes(const NusLongParams<Cell>& p, int I) {
    return p.codes + (uint64_t{blockIdx.y} * p.nb + static_cast<uint64_t>(I)) * kNusTile;
}

// Partial maxima over whole K tiles for the tiles of diagonal d >= 2. Block
// b: tile q = b / splits (I = q, J = q + d), K tiles [I+1, J-1] cut into
// `splits` contiguous ranges, this block's is range b % splits.
template <class Pack>
__global__ void __launch_bounds__(kNusProductThreads, 2)
nus_product_kernel(NusLongParams<typename Pack::Cell> p) {
    constexpr int B = kNusTile, KW = kNusStageWords, SP = kNusStagePitch;
    constexpr int kTileWords = B / Pack::kPerWord;   // words of k in one K tile
    constexpr int kStagesPerTile = kTileWords / KW;
    __shared__ __align__(16) uint32_t As[2][KW][SP];
    __shared__ __align__(16) uint32_t Bs[2][KW][SP];
    const int tid = threadIdx.x;
    const int q = static_cast<int>(blockIdx.x) / p.splits, s = static_cast<int>(blockIdx.x) % p.splits;
    const int I = q, J = q + p.d, kt = p.d - 1;
    const int k_lo = I + 1 + kt * s / p.splits, k_hi = I + 1 + kt * (s + 1) / p.splits;  // K tiles [k_lo, k_hi)
    const int stages = (k_hi - k_lo) * kStagesPerTile;

    // Loader: row lr of the strip, words [lpart * 4, lpart * 4 + 4) of the stage.
    const int lr = tid >> 1, lpart = tid & 1;
    auto load = [&](int st, uint4& ra, uint4& rb) {
        const int K = k_lo + st / kStagesPerTile, w0 = (st % kStagesPerTile) * KW + lpart * 4;
        const uint32_t* ua = reinterpret_cast<const uint32_t*>(nus_u_tile(p, I, K) + uint64_t{static_cast<uint32_t>(lr)} * B);
        const uint32_t* vb = reinterpret_cast<const uint32_t*>(nus_v_tile(p, J, K) + uint64_t{static_cast<uint32_t>(lr)} * B);
        ra = __ldg(reinterpret_cast<const uint4*>(ua + w0));
        rb = __ldg(reinterpret_cast<const uint4*>(vb + w0));
    };
    auto store = [&](int buf, const uint4& ra, const uint4& rb) {
        As[buf][lpart * 4 + 0][lr] = ra.x, As[buf][lpart * 4 + 1][lr] = ra.y;
        As[buf][lpart * 4 + 2][lr] = ra.z, As[buf][lpart * 4 + 3][lr] = ra.w;
        Bs[buf][lpart * 4 + 0][lr] = rb.x, Bs[buf][lpart * 4 + 1][lr] = rb.y;
        Bs[buf][lpart * 4 + 2][lr] = rb.z, Bs[buf][lpart * 4 + 3][lr] = rb.w;
    };

    // Thread (ty, tx) owns rows ty*4 + {0..3}, 64 + ty*4 + {0..3} and the same columns of tx.
    const int ty = tid / 16, tx = tid % 16;
    uint32_t acc[8][8];
#pragma unroll
    for (int x = 0; x < 8; ++x)
#pragma unroll
        for (int y = 0; y < 8; ++y) acc[x][y] = 0;

    uint4 ra, rb;
    if (stages > 0) {
        load(0, ra, rb);
        store(0, ra, rb);
    }
    __syncthreads();
    for (int st = 0; st < stages; ++st) {
        const int buf = st & 1;
        const bool more = st + 1 < stages;
        if (more) load(st + 1, ra, rb);
#pragma unroll
        for (int kw = 0; kw < KW; ++kw) {
            uint32_t av[8], bv[8];
            const uint4 a0 = *reinterpret_cast<const uint4*>(&As[buf][kw][ty * 4]);
            const uint4 a1 = *reinterpret_cast<const uint4*>(&As[buf][kw][64 + ty * 4]);
            const uint4 b0 = *reinterpret_cast<const uint4*>(&Bs[buf][kw][tx * 4]);
            const uint4 b1 = *reinterpret_cast<const uint4*>(&Bs[buf][kw][64 + tx * 4]);
            av[0] = a0.x, av[1] = a0.y, av[2] = a0.z, av[3] = a0.w, av[4] = a1.x, av[5] = a1.y, av[6] = a1.z, av[7] = a1.w;
            bv[0] = b0.x, bv[1] = b0.y, bv[2] = b0.z, bv[3] = b0.w, bv[4] = b1.x, bv[5] = b1.y, bv[6] = b1.z, bv[7] = b1.w;
#pragma unroll
            for (int x = 0; x < 8; ++x)
#pragma unroll
                for (int y = 0; y < 8; ++y) acc[x][y] = Pack::step(av[x], bv[y], acc[x][y]);
        }
        if (more) store(buf ^ 1, ra, rb);
        __syncthreads();
    }

    const int tiles = p.nb - p.d;
    int32_t* out = p.partial + blockIdx.y * p.partial_cells + (static_cast<uint64_t>(s) * tiles + q) * (B * B);
#pragma unroll
    for (int x = 0; x < 8; ++x) {
        const int r = (x < 4 ? 0 : 64) + ty * 4 + (x & 3);
        const int4 lo = make_int4(Pack::reduce(acc[x][0]), Pack::reduce(acc[x][1]), Pack::reduce(acc[x][2]), Pack::reduce(acc[x][3]));
        const int4 hi = make_int4(Pack::reduce(acc[x][4]), Pack::reduce(acc[x][5]), Pack::reduce(acc[x][6]), Pack::reduce(acc[x][7]));
        *reinterpret_cast<int4*>(out + r * B + tx * 4) = lo;
        *reinterpret_cast<int4*>(out + r * B + 64 + tx * 4) = hi;
    }
}

// Shared memory of the diagonal kernel: the tile, and the row below it and
// the column left of it (used by the finish kernel only).
template <class Pack>
constexpr size_t nus_tile_smem_bytes() {
    return sizeof(typename Pack::Cell) * kNusTile * Pack::kTilePitch + sizeof(int) * (2 * kNusTile + 1);
}
// The finish kernel's: that, then copies of the two finished diagonal tiles
// its in-tile terms read, (I,I) by rows and (J,J) by V's rows.
template <class Pack>
constexpr size_t nus_finish_smem_bytes() {
    return nus_tile_smem_bytes<Pack>() + 2 * sizeof(typename Pack::Cell) * kNusTile * Pack::kTilePitch;
}

// Stores the finished tile (I,J) from shared memory: U(I,J) row by row, V(J,I)
// rows 1..B-1 of the tile as V's entries [c][0..B-2] (entry B-1 is row 0 of
// tile (I+1,J), stored by that tile; the diagonal tile stores 0 there: the
// interval is empty), and row 0 as entry [c][B-1] of V(J,I-1).
template <class Pack>
__device__ void nus_store_tile(const NusLongParams<typename Pack::Cell>& p, const typename Pack::Cell* T, int I, int J) {
    using Cell = typename Pack::Cell;
    constexpr int B = kNusTile, TP = Pack::kTilePitch;
    Cell* u = nus_u_tile(p, I, J);
    for (int x = threadIdx.x; x < B * B; x += blockDim.x) u[x] = T[(x / B) * TP + x % B];
    Cell* v = nus_v_tile(p, J, I);
    for (int x = threadIdx.x; x < B * B; x += blockDim.x) {
        const int c = x / B, kk = x % B;
        if (kk < B - 1) v[x] = (I != J || kk + 1 <= c) ? T[(kk + 1) * TP + c] : Cell(0);
        else if (I == J) v[x] = Cell(0);
    }
    if (I >= 1) {
        Cell* v2 = nus_v_tile(p, J, I - 1);
        for (int c = threadIdx.x; c < B; c += blockDim.x) v2[c * B + (B - 1)] = T[c];
    }
}

// Tiles (I,I) of the diagonal: a triangle wavefront by interval length.
template <class Pack>
__global__ void __launch_bounds__(kNusDiagThreads)
nus_diag_kernel(NusLongParams<typename Pack::Cell> p) {
    using Cell = typename Pack::Cell;
    constexpr int B = kNusTile, TP = Pack::kTilePitch;
    extern __shared__ __align__(16) unsigned char nus_smem[];
    Cell* T = reinterpret_cast<Cell*>(nus_smem);
    const int tid = threadIdx.x, I = blockIdx.x;
    const uint8_t* a = nus_codes(p, I);
    const NusRules& R = p.rules;
    for (int x = tid; x < B * TP; x += kNusDiagThreads) T[x] = Cell(0);
    __syncthreads();
    for (int len = 1; len < B; ++len) {
        const int m = B - len;
        const int g = nus_group_size(kNusDiagThreads, m);
        const int grp = tid / g, h = tid % g;
        const bool live = grp < m;
        const int r = live ? grp : 0, c = r + len;
        int best = 0;
        if (live) {
            for (int kk = r + h; kk < c; kk += g)
                best = max(best, static_cast<int>(T[r * TP + kk]) + static_cast<int>(T[(kk + 1) * TP + c]));
        }
        best = nus_group_max(best, g);
        if (live && h == 0) {
            const int w = nus_pair_weight(R, a[r], a[c]);
            if (w >= 0 && len - 1 >= R.min_loop) best = max(best, (len >= 2 ? static_cast<int>(T[(r + 1) * TP + c - 1]) : 0) + w);
            T[r * TP + c] = static_cast<Cell>(best);
        }
        __syncthreads();
    }
    nus_store_tile<Pack>(p, T, I, I);
}

// Tiles (I, I+d), d >= 1, after the product (none for d = 1).
template <class Pack>
__global__ void __launch_bounds__(kNusFinishThreads)
nus_finish_kernel(NusLongParams<typename Pack::Cell> p) {
    using Cell = typename Pack::Cell;
    constexpr int B = kNusTile, TP = Pack::kTilePitch;
    extern __shared__ __align__(16) unsigned char nus_smem[];
    Cell* T = reinterpret_cast<Cell*>(nus_smem);
    int* below = reinterpret_cast<int*>(nus_smem + sizeof(Cell) * B * TP);  // [c] = C((I+1)B, JB+c)
    int* left = below + B;                                                  // [r] = C(IB+r, JB-1), r in [0, B]
    Cell* di = reinterpret_cast<Cell*>(left + B + 1);  // [r * TP + kk] = C(IB+r, IB+kk)
    Cell* dj = di + B * TP;                            // [c * TP + kk] = C(JB+kk+1, JB+c)
    const int tid = threadIdx.x, q = blockIdx.x, I = q, J = q + p.d, tiles = p.nb - p.d;
    const NusRules& R = p.rules;
    const uint8_t* ai = nus_codes(p, I);
    const uint8_t* aj = nus_codes(p, J);
    const int32_t* partial = p.partial + blockIdx.y * p.partial_cells;
    for (int x = tid; x < B * B; x += kNusFinishThreads) {
        int v = 0;
        for (int s = 0; s < p.splits; ++s) v = max(v, partial[(static_cast<uint64_t>(s) * tiles + q) * (B * B) + x]);
        T[(x / B) * TP + x % B] = static_cast<Cell>(v);
    }
    const Cell* ub = nus_u_tile(p, I + 1, J);
    const Cell* ul = nus_u_tile(p, I, J - 1);
    for (int x = tid; x < B; x += kNusFinishThreads) {
        below[x] = static_cast<int>(ub[x]);
        left[x] = static_cast<int>(ul[x * B + B - 1]);
    }
    if (tid == 0) left[B] = p.d >= 2 ? static_cast<int>(nus_u_tile(p, I + 1, J - 1)[B - 1]) : 0;
    const Cell* gi = nus_u_tile(p, I, I);
    const Cell* gj = nus_v_tile(p, J, J);
    for (int x = tid; x < B * B; x += kNusFinishThreads) {
        di[(x / B) * TP + x % B] = gi[x];
        dj[(x / B) * TP + x % B] = gj[x];
    }
    __syncthreads();
    // Step t: cells with (B-1-r) + c = t, each with t + 1 split terms.
    for (int t = 0; t <= 2 * B - 2; ++t) {
        const int lo = max(0, t - (B - 1)), hi = min(t, B - 1), m = hi - lo + 1;
        const int g = nus_group_size(kNusFinishThreads, m);
        const int grp = tid / g, h = tid % g;
        const bool live = grp < m;
        const int rr = live ? lo + grp : lo, r = B - 1 - rr, c = t - rr;
        int best = 0;
        if (live) {
            const Cell* dr = di + r * TP;
            for (int kk = r + h; kk < B - 1; kk += g)
                best = max(best, static_cast<int>(dr[kk]) + static_cast<int>(T[(kk + 1) * TP + c]));
            const Cell* dc = dj + c * TP;
            for (int kk = h; kk < c; kk += g) best = max(best, static_cast<int>(T[r * TP + kk]) + static_cast<int>(dc[kk]));
            if (h == 0) {
                best = max(best, static_cast<int>(dr[B - 1]) + below[c]);
                best = max(best, static_cast<int>(T[r * TP + c]));
            }
        }
        best = nus_group_max(best, g);
        if (live && h == 0) {
            const int w = nus_pair_weight(R, ai[r], aj[c]);
            const int span = (J - I) * B + c - r;  // j - i
            if (w >= 0 && span - 1 >= R.min_loop) {
                int inner;
                if (span < 2) inner = 0;
                else if (r == B - 1) inner = c >= 1 ? below[c - 1] : left[B];
                else inner = c >= 1 ? static_cast<int>(T[(r + 1) * TP + c - 1]) : left[r + 1];
                best = max(best, inner + w);
            }
            T[r * TP + c] = static_cast<Cell>(best);
        }
        __syncthreads();
    }
    nus_store_tile<Pack>(p, T, I, J);
}

// Scores and structures of sequences folded by the tiled kernels, sequence
// q of the launch by warp q, at every length: C(i,j) from the U tiles (cells
// left of the diagonal of a diagonal tile hold 0, as C does there), and the
// split scan's C(k+1,j) from V's row j, so that both operands of 32
// consecutive k are contiguous (V(j, j-1) = C(j, j) = 0 is stored by the
// diagonal tile).
template <class Cell>
struct NusTileTable {
    const Cell* u;
    const Cell* v;
    static constexpr uint32_t B = kNusTile;
    __device__ int C(uint32_t i, uint32_t j) const {
        if (i >= j) return 0;
        return static_cast<int>(u[nus_tri(i / B, j / B) * (B * B) + (i % B) * B + j % B]);
    }
    __device__ int split_sum(uint32_t i, uint32_t k, uint32_t j) const {
        const int cik = static_cast<int>(u[nus_tri(i / B, k / B) * (B * B) + (i % B) * B + k % B]);
        return cik + static_cast<int>(v[nus_tri(k / B, j / B) * (B * B) + (j % B) * B + k % B]);
    }
};

template <class Cell>
struct NusTilesTraceParams {
    const Cell* U = nullptr;
    const Cell* V = nullptr;
    uint64_t seq_cells = 0;
    const uint8_t* codes = nullptr;  // nb * B a sequence
    int nb = 0;
    const uint32_t* len = nullptr;
    uint32_t count = 0;
    NusRules rules;
    int32_t* score = nullptr;
    char* structure = nullptr;       // nullptr: scores only; sequence q at q * nb * B
    int32_t* stack = nullptr;        // 2 (nb * B + 2) words a sequence
};

inline constexpr int kNusTraceWarps = 4;

template <class Cell>
__global__ void __launch_bounds__(32 * kNusTraceWarps)
nus_tiles_trace_kernel(NusTilesTraceParams<Cell> p) {
    const uint32_t q = blockIdx.x * kNusTraceWarps + threadIdx.x / 32;
    const int lane = static_cast<int>(threadIdx.x % 32);
    if (q >= p.count) return;
    const NusTileTable<Cell> t{p.U + q * p.seq_cells, p.V + q * p.seq_cells};
    const uint32_t L = p.len[q];
    const uint64_t span = uint64_t(p.nb) * kNusTile;
    if (lane == 0) p.score[q] = t.C(0, L - 1);
    if (p.structure == nullptr) return;
    nus_warp_traceback(t, p.codes + q * span, L, p.rules, p.structure + q * span, p.stack + q * 2 * (span + 2), lane);
}

}  // namespace warpdp::cuda
