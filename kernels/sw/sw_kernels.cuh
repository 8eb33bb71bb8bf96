// gpu-sw's CUDA kernels: local alignment scores with affine gaps, one query
// against many resident targets, two targets a group of lanes in 16-bit
// pairs (DPX) or 32-bit cells. Kernels only compute: device pointers, sizes
// and a parameter struct in, one score per target out; sw_cuda.cu sorts and
// pairs the targets, picks the configuration from the one table
// (sw_configs.inc) and launches. The design (shifted recurrence, shape,
// score ring, padding, streaming, overflow): docs/sw.md §6.1.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace warpdp::cuda {

inline constexpr int kSwPadScore = -1024;            // pad code against anything
inline constexpr uint32_t kSwNoTarget = 0xffffffffu;  // second slot of a pair left empty
inline constexpr int kSwMaxAlphabet = 33;            // codes including the pad code

// The host's bound on |scores|, open + extend for 16-bit cells: values stay
// in [-2 * 8192 - 1024, 32767 + 8192] before the overflow test triggers.
inline constexpr int kSw16MaxScore = 8192;
inline constexpr int kSw16MaxGap = 8192;

// A pair queued for a group's stream (sw_stream, sw_passes): the virtual
// columns [start, end) of its first pass (the other passes follow, each as
// long) and its two targets.
struct SwQueued {
    const uint8_t* s0;
    const uint8_t* s1;
    uint32_t start, end, t0, t1, len0, len1;
    __device__ uint32_t columns() const { return end - start; }
};
inline constexpr int kSwQueue = 4;  // entries a group
static_assert(kSwQueue * sizeof(SwQueued) % 16 == 0, "the staged top boundary after the queues is 16-byte aligned");

// Ring slots of a group's profile: a multiple of 32, at least 2G.
__host__ __device__ constexpr int sw_ring_slots(int G) { return G <= 16 ? 32 : 2 * G; }
// With G >= 16 a query code's ring is followed by 32 words that repeat its
// first G slots, so that the G columns a lane reads in a chunk lie at
// consecutive addresses: a step's slot is then one multiply-add from the
// chunk's first, not a wrap masked on the integer ALU. (G = 8 would double
// its rings and lose blocks; it masks.)
__host__ __device__ constexpr bool sw_ring_mirrored(int G) { return G >= 16; }
// Words between the rings of two query codes: a multiple of 32, so that the
// lanes of a group read different banks whatever their codes.
__host__ __device__ constexpr int sw_ring_stride(int G) { return sw_ring_slots(G) + (sw_ring_mirrored(G) ? 32 : 0); }
// Words of shared memory a block needs: the matrix, then one ring a group,
// each G banks after the last, then (16-byte aligned) one queue a group,
// then, for the several-pass kernel (top_bytes: the bytes of a boundary
// column, else 0), G staged top-boundary columns a group and one zero column.
__host__ __device__ constexpr int sw_ring_words(int alphabet, int G, int threads) {
    return (alphabet * alphabet + (threads / G) * (alphabet * sw_ring_stride(G) + G) + 3) / 4 * 4;
}
__host__ __device__ constexpr int sw_queue_words(int G, int threads) {
    return (threads / G) * kSwQueue * static_cast<int>(sizeof(SwQueued) / 4);
}
__host__ __device__ constexpr int sw_smem_words(int alphabet, int G, int threads, int top_bytes) {
    return sw_ring_words(alphabet, G, threads) + sw_queue_words(G, threads) + ((threads / G) * G + 1) * top_bytes / 4;
}
// Words a lane's rows of one pass take in SwLaunchParams::query_rows: R
// rounded up to 4, so that each lane's rows start 16-byte aligned.
__host__ __device__ constexpr int sw_rows_stride(int R) { return (R + 3) / 4 * 4; }
// Lays the query's codes (m of them; pad past the end) out as the kernels of
// G lanes and R rows a lane load them: passes * G * sw_rows_stride(R) words.
inline std::vector<uint32_t> sw_query_rows(const uint8_t* query, uint32_t m, int G, int R, int pad) {
    const uint32_t W = static_cast<uint32_t>(G * R), passes = (m + W - 1) / W;
    const uint32_t R4 = static_cast<uint32_t>(sw_rows_stride(R)), RW4 = static_cast<uint32_t>(sw_ring_stride(G) * 4);
    std::vector<uint32_t> rows(static_cast<size_t>(passes) * G * R4, static_cast<uint32_t>(pad) * RW4);
    for (uint32_t i = 0; i < m; ++i) {
        const uint32_t pass = i / W, t = i % W / R, k = i % R;
        rows[(static_cast<size_t>(pass) * G + t) * R4 + k] = static_cast<uint32_t>(query[i]) * RW4;
    }
    return rows;
}
// Columns of a boundary slot the multi-pass form needs for targets of at
// most `longest` residues.
__host__ __device__ constexpr uint32_t sw_boundary_columns(uint32_t longest, int G) {
    return longest > 3u * G ? longest : 3u * G;
}

// x in both signed 16-bit halves of a word.
__host__ __device__ constexpr uint32_t sw_pair16(int x) {
    return static_cast<uint32_t>(static_cast<uint16_t>(static_cast<int16_t>(x))) * 0x10001u;
}

// Two signed 16-bit halves in a word: target 0 low, target 1 high.
struct SwCell16 {
    using V = uint32_t;
    static constexpr int kNeg = -16384;
    static constexpr int kBoundaryBytes = 8;  // H and F of one column
    __device__ static V splat(int x) {
        const uint32_t h = static_cast<uint16_t>(static_cast<int16_t>(x));
        return h | (h << 16);
    }
    // A kernel parameter x, given also as sw_pair16(x).
    __device__ static V param(int, uint32_t pair) { return pair; }
    __device__ static V add(V a, V b) { return __vadd2(a, b); }
    __device__ static V add_max(V a, V b, V c) { return __viaddmax_s16x2(a, b, c); }
    __device__ static V add_max_relu(V a, V b, V c) { return __viaddmax_s16x2_relu(a, b, c); }
    __device__ static V max3(V a, V b, V c) { return __vimax3_s16x2(a, b, c); }
    __device__ static V score(uint32_t w) { return w; }
    // x * k + a on the FMA pipe, k 0 or 1: both halves at once.
    __device__ static V mad(V x, uint32_t k, V a) { return x * k + a; }
    __device__ static V shfl_up(unsigned mask, V v, int width) { return __shfl_up_sync(mask, v, 1, width); }
    __device__ static V shfl(unsigned mask, V v, int src, int width) { return __shfl_sync(mask, v, src, width); }
    __device__ static V shfl_xor(unsigned mask, V v, int m, int width) { return __shfl_xor_sync(mask, v, m, width); }
    __device__ static int lane(V v, int k) { return static_cast<int16_t>(k ? (v >> 16) : (v & 0xffffu)); }
    __device__ static void store(void* at, V h, V f) { *static_cast<uint2*>(at) = make_uint2(h, f); }
    __device__ static void load(const void* at, V& h, V& f) {
        const uint2 x = *static_cast<const uint2*>(at);
        h = x.x;
        f = x.y;
    }
    // The same at a shared-window address.
    __device__ static void store_shared(uint32_t at, V h, V f) {
        asm volatile("st.shared.v2.u32 [%0], {%1, %2};" ::"r"(at), "r"(h), "r"(f) : "memory");
    }
    __device__ static void load_shared(uint32_t at, V& h, V& f) {
        asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(h), "=r"(f) : "r"(at));
    }
};

// Two 32-bit alignments side by side: the exact recomputation.
struct SwCell32 {
    struct V {
        int a, b;
    };
    static constexpr int kNeg = -(1 << 29);
    static constexpr int kBoundaryBytes = 16;
    __device__ static V splat(int x) { return {x, x}; }
    __device__ static V param(int x, uint32_t) { return {x, x}; }
    __device__ static V add(V x, V y) { return {x.a + y.a, x.b + y.b}; }
    __device__ static V add_max(V x, V y, V z) { return {__viaddmax_s32(x.a, y.a, z.a), __viaddmax_s32(x.b, y.b, z.b)}; }
    __device__ static V add_max_relu(V x, V y, V z) {
        return {__viaddmax_s32_relu(x.a, y.a, z.a), __viaddmax_s32_relu(x.b, y.b, z.b)};
    }
    __device__ static V max3(V x, V y, V z) { return {__vimax3_s32(x.a, y.a, z.a), __vimax3_s32(x.b, y.b, z.b)}; }
    __device__ static V score(uint32_t w) {
        return {static_cast<int16_t>(w & 0xffffu), static_cast<int16_t>(w >> 16)};
    }
    __device__ static V mad(V x, uint32_t k, V a) {
        return {static_cast<int>(static_cast<uint32_t>(x.a) * k + static_cast<uint32_t>(a.a)),
                static_cast<int>(static_cast<uint32_t>(x.b) * k + static_cast<uint32_t>(a.b))};
    }
    __device__ static V shfl_up(unsigned mask, V v, int width) {
        return {__shfl_up_sync(mask, v.a, 1, width), __shfl_up_sync(mask, v.b, 1, width)};
    }
    __device__ static V shfl(unsigned mask, V v, int src, int width) {
        return {__shfl_sync(mask, v.a, src, width), __shfl_sync(mask, v.b, src, width)};
    }
    __device__ static V shfl_xor(unsigned mask, V v, int m, int width) {
        return {__shfl_xor_sync(mask, v.a, m, width), __shfl_xor_sync(mask, v.b, m, width)};
    }
    __device__ static int lane(V v, int k) { return k ? v.b : v.a; }
    __device__ static void store(void* at, V h, V f) { *static_cast<int4*>(at) = make_int4(h.a, h.b, f.a, f.b); }
    __device__ static void load(const void* at, V& h, V& f) {
        const int4 x = *static_cast<const int4*>(at);
        h = {x.x, x.y};
        f = {x.z, x.w};
    }
    __device__ static void store_shared(uint32_t at, V h, V f) {
        asm volatile("st.shared.v4.s32 [%0], {%1, %2, %3, %4};" ::"r"(at), "r"(h.a), "r"(h.b), "r"(f.a), "r"(f.b)
                     : "memory");
    }
    __device__ static void load_shared(uint32_t at, V& h, V& f) {
        asm volatile("ld.shared.v4.s32 {%0, %1, %2, %3}, [%4];" : "=r"(h.a), "=r"(h.b), "=r"(f.a), "=r"(f.b) : "r"(at));
    }
};

struct SwLaunchParams {
    // Resident targets: codes 0 .. alphabet - 2, back to back.
    const uint8_t* residues = nullptr;
    const uint64_t* offset = nullptr;  // per resident target
    const uint32_t* length = nullptr;
    // The pairs of this launch, longest first: resident indices pair[2g] and
    // pair[2g + 1] (kSwNoTarget: none).
    const uint32_t* pair = nullptr;
    uint32_t groups = 0;
    // The query's rows as each lane loads them (sw_query_rows): per pass p and
    // lane t, the R rows' byte offsets in a ring, at (p * G + t) * R4 words.
    const uint32_t* query_rows = nullptr;
    uint32_t query_len = 0;
    // alphabet x alphabet entries s(q, c) at c * alphabet + q as uint16 (the
    // transpose: a column's scores for every query code are contiguous);
    // the pad code alphabet - 1 scores kSwPadScore.
    const uint32_t* matrix = nullptr;
    int alphabet = 0;
    int gap_open = 11, gap_extend = 1;
    // sw_pair16(-gap_open), sw_pair16(-gap_extend): made on the host, so that
    // the kernels read them as constants instead of rebuilding them in the
    // inner loop when registers are short.
    uint32_t open_pair = sw_pair16(-11), extend_pair = sw_pair16(-1);
    int32_t* score = nullptr;  // per resident target
    // 16-bit cells: a best >= overflow_at appends the resident index to
    // overflow[] (count in overflow_count) instead of writing score.
    int overflow_at = 0x7fffffff;
    uint32_t* overflow = nullptr;
    uint32_t* overflow_count = nullptr;
    // Multi-pass (query longer than G * R): a boundary slot of
    // boundary_columns columns per group of the grid.
    uint8_t* boundary = nullptr;
    uint32_t boundary_columns = 0;
    uint32_t* next_pair = nullptr;  // the counter groups take pairs from
    // Always 1; the compiler cannot know it (sw_stream multiplies by it to keep
    // adds off the integer ALU).
    uint32_t one = 1;
};

namespace sw_detail {

// The lanes of this lane's group (G a power of two <= 32).
template <int G>
__device__ __forceinline__ unsigned group_mask() {
    if constexpr (G == 32) return 0xffffffffu;
    else return ((1u << G) - 1u) << (threadIdx.x & 31 & ~(G - 1));
}

template <class C, int G>
__device__ __forceinline__ typename C::V group_max(typename C::V v) {
    const unsigned mask = group_mask<G>();
#pragma unroll
    for (int m = G / 2; m > 0; m >>= 1) v = C::max3(v, C::shfl_xor(mask, v, m, G), v);
    return v;
}

template <class C>
__device__ __forceinline__ void put_score(const SwLaunchParams& p, uint32_t target, int best) {
    if (target == kSwNoTarget) return;
    if (best >= p.overflow_at) {
        p.overflow[atomicAdd(p.overflow_count, 1u)] = target;
        return;
    }
    p.score[target] = best;
}

// One pair of cells, row i, column j, in the shifted form of the design
// note: d = Ĥ(i-1, j-1), sc = s(q_i, t_j); e holds Ê(i, j) and becomes
// Ê(i, j+1), f holds F(i, j) and becomes F(i+1, j); returns Ĥ(i, j). open
// and ext are -gap_open and -gap_extend. Only f -> f is on the chain down
// the lane's rows: one instruction a row.
template <class C>
__device__ __forceinline__ typename C::V sw_cell(typename C::V d, typename C::V sc, typename C::V& e,
                                                 typename C::V& f, typename C::V open, typename C::V ext) {
    using V = typename C::V;
    const V x = C::add_max(d, sc, C::add(e, open));  // max(0, D, E) - open
    const V h = C::add_max(f, open, x);
    e = C::add_max_relu(e, ext, h);
    f = C::add_max(f, ext, x);
    return h;
}

// Lane t's rows of pass `pass` as byte offsets in a ring (code *
// sw_ring_stride(G) * 4; the ring's own address comes with the step's
// slot): R / 4 vector loads of what the host laid out (sw_query_rows), so
// that a lane entering a new pass in sw_passes, alone in a divergent
// branch, issues a few instructions rather than four a row.
template <int G, int R>
__device__ __forceinline__ void load_rows(const SwLaunchParams& p, uint32_t pass, int t, uint32_t (&qoff)[R]) {
    constexpr int R4 = sw_rows_stride(R);
    const uint4* at = reinterpret_cast<const uint4*>(p.query_rows + (pass * G + static_cast<uint32_t>(t)) * R4);
#pragma unroll
    for (int j = 0; j < R4 / 4; ++j) {
        const uint4 w = __ldg(at + j);
        const uint32_t x[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
        for (int i = 0; i < 4; ++i)
            if (4 * j + i < R) qoff[4 * j + i] = x[i];
    }
#pragma unroll
    for (int k = 0; k < R; ++k) {
        // Opaque to the optimiser, which would otherwise split sw_stream's
        // one multiply-add per score address into two.
        asm("" : "+r"(qoff[k]));
    }
}

// A 32-bit word of shared memory at a 32-bit shared-window address: the
// address is then one register the kernel computes as it chooses.
__device__ __forceinline__ uint32_t load_shared(uint32_t address) {
    uint32_t x;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(address));
    return x;
}

// The R rows of one step of a lane: d is the diagonal of its first row,
// f the F entering it (leaves as the F below the last row), best the
// lane's running best. Row k's score is at shared-window address
// qoff[k] * one + slot. Busy: a lane at a pair's or a pass's first column
// (kx = 0, hx = -open) restarts its rows by multiply-adds, Ê to 0 and the
// diagonals to Ĥ = -open; other lanes have kx = 1, hx = 0.
template <class C, int R, bool Busy>
__device__ __forceinline__ void sw_rows(const uint32_t (&qoff)[R], uint32_t one, uint32_t slot, typename C::V d,
                                        typename C::V (&hc)[R], typename C::V (&er)[R], typename C::V& f,
                                        typename C::V& best, uint32_t kx, typename C::V hx, typename C::V open,
                                        typename C::V ext) {
    using V = typename C::V;
    const V zero = C::splat(0);
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const V sc = C::score(load_shared(qoff[k] * one + slot));
        V e = er[k];
        if constexpr (Busy) e = C::mad(e, kx, zero);
        const V h = sw_cell<C>(d, sc, e, f, open, ext);
        er[k] = e;
        d = hc[k];
        if constexpr (Busy) d = C::mad(d, kx, hx);
        hc[k] = h;
        if (k & 1) best = C::max3(best, hc[k - 1], h);
        else if (k == R - 1) best = C::max3(best, h, h);
    }
}

// Writes the profile of virtual column v to its ring slot: for every query
// code q, s(q, c0) | s(q, c1) << 16 (the matrix mq is transposed, so a
// column's scores are contiguous); in a mirrored ring the first G slots
// twice. The lanes of a warp fill G consecutive columns of one chunk, all
// in the first G slots or none: the branch does not diverge.
template <int G>
__device__ __forceinline__ void fill_profile(const uint32_t* __restrict__ mq, uint32_t* __restrict__ ring, int alpha,
                                             uint32_t v, int c0, int c1) {
    constexpr int RS = sw_ring_slots(G), RW = sw_ring_stride(G);
    const uint32_t* m0 = mq + c0 * alpha;
    const uint32_t* m1 = mq + c1 * alpha;
    const uint32_t s = v & (RS - 1);
    uint32_t* at = ring + s;
    if (sw_ring_mirrored(G) && s < G) {
#pragma unroll 5
        for (int q = 0; q < alpha; ++q) {
            const uint32_t w = m1[q] * 65536u + m0[q];
            at[q * RW] = w;
            at[q * RW + RS] = w;
        }
    } else {
#pragma unroll 5
        for (int q = 0; q < alpha; ++q) at[q * RW] = m1[q] * 65536u + m0[q];
    }
}

// The shared-window address in the group's ring (at `ring`) of the column
// lane t reads at step u of chunk c, code 0: with a mirrored ring a
// multiply-add from the chunk's first (first = ring + ((c - t) mod RS) * 4,
// four = 4 at run time, so that it is an IMAD on the FMA pipe), else the
// column's slot masked.
template <int G>
__device__ __forceinline__ uint32_t ring_slot(uint32_t c, int u, int t, uint32_t ring, uint32_t first, uint32_t four) {
    if constexpr (sw_ring_mirrored(G)) return static_cast<uint32_t>(u) * four + first;
    else return ring + ((c + static_cast<uint32_t>(u) - static_cast<uint32_t>(t)) & (sw_ring_slots(G) - 1)) * 4;
}

// Whether a chunk may run the quiet copy of the step (sw_stream,
// sw_passes): only if it is quiet for every group of the warp. A vote even
// for G = 32, so the compiler knows the result uniform (docs/sw.md §6.1).
template <int G>
__device__ __forceinline__ bool warp_quiet(bool quiet) {
    if constexpr (G == 32) return __all_sync(0xffffffffu, quiet);
    else return __all_sync(__activemask(), quiet);
}

// A group's queue of pairs in shared memory: lane 0 takes pairs from
// p.next_pair and writes the entries; every lane keeps the same count of
// pairs taken (tail) and the virtual column after the last one (tail_end).
struct SwPairQueue {
    SwQueued* q;
    uint32_t tail = 0, tail_end = 0;
    bool more = true;  // p.next_pair may have more

    // Takes pairs until the queued columns reach `upto`: each gets `passes`
    // passes of max(its longer target, min_columns) columns.
    template <int G>
    __device__ void refill(const SwLaunchParams& p, unsigned mask, int t, uint32_t upto, uint32_t passes,
                           uint32_t min_columns) {
        while (more && tail_end < upto) {
            uint32_t g = 0;
            if (t == 0) g = atomicAdd(p.next_pair, 1u);
            g = __shfl_sync(mask, g, 0, G);
            if (g >= p.groups) {
                more = false;
                break;
            }
            const uint32_t t0 = p.pair[2 * g], t1 = p.pair[2 * g + 1];
            const uint32_t len0 = p.length[t0], len1 = t1 == kSwNoTarget ? 0 : p.length[t1];
            const uint32_t nn = max(max(len0, len1), min_columns);
            if (t == 0) {
                SwQueued& e = q[tail % kSwQueue];
                e.s0 = p.residues + p.offset[t0];
                e.s1 = t1 == kSwNoTarget ? e.s0 : p.residues + p.offset[t1];
                e.start = tail_end;
                e.end = tail_end + nn;
                e.t0 = t0;
                e.t1 = t1;
                e.len0 = len0;
                e.len1 = len1;
            }
            tail_end += passes * nn;
            ++tail;
        }
        __syncwarp(mask);
    }
    __device__ const SwQueued& operator[](uint32_t k) const { return q[k % kSwQueue]; }
    // Virtual column v's residue codes, pad past a target's end and past the
    // last pair. Passes: the pairs have several passes (column v - start
    // modulo a pass's columns).
    template <bool Passes>
    __device__ void codes(uint32_t v, int pad, int& c0, int& c1) const {
        c0 = pad, c1 = pad;
        if (v >= tail_end) return;
        const SwQueued& e = holding(v);
        const uint32_t j = Passes ? (v - e.start) % e.columns() : v - e.start;
        if (j < e.len0) c0 = e.s0[j];
        if (j < e.len1) c1 = e.s1[j];
    }
    // The pair holding virtual column v < tail_end: the fill and the top
    // boundary ask at most a chunk ahead, inside the last two pairs queued.
    __device__ const SwQueued& holding(uint32_t v) const {
        const SwQueued& e = q[(tail - 1) % kSwQueue];
        return v < e.start ? q[(tail - 2) % kSwQueue] : e;
    }
};

// Queries of at most W = G * R rows, one pass: the group streams its pairs
// (queued from p.next_pair) back to back through one wavefront (docs/sw.md
// §6.1). The score's address is a multiply-add by p.one, a run-time 1, so
// that it issues to the FMA pipe, off the DPX instructions' ALU pipe (§6).
template <class C, int G, int R, int U>
__device__ __forceinline__ void sw_stream(const SwLaunchParams& p, const uint32_t* __restrict__ mq,
                                          uint32_t* __restrict__ ring, SwQueued* queue) {
    using V = typename C::V;
    constexpr uint32_t RS = sw_ring_slots(G), kNever = 0xffffffffu;
    const unsigned mask = group_mask<G>();
    const int t = static_cast<int>(threadIdx.x) & (G - 1);
    const int alpha = p.alphabet, pad = alpha - 1;
    const uint32_t one = p.one, four = one << 2;

    SwPairQueue pq{queue};
    const auto refill = [&](uint32_t upto) { pq.refill<G>(p, mask, t, upto, 1, 2u * G); };
    refill(2 * G);
    if (pq.tail == 0) return;

    const auto codes = [&](uint32_t v, int& c0, int& c1) { pq.codes<false>(v, pad, c0, c1); };
    const auto fill = [&](uint32_t v, int c0, int c1) { fill_profile<G>(mq, ring, alpha, v, c0, c1); };

    uint32_t qoff[R];  // the rows' codes' places in the ring, shared-window addresses
    V hc[R], er[R];    // Ĥ and Ê of the rows
    const V neg = C::splat(C::kNeg), zero = C::splat(0);
    const V open = C::param(-p.gap_open, p.open_pair), ext = C::param(-p.gap_extend, p.extend_pair);
    const uint32_t ring_base = static_cast<uint32_t>(__cvta_generic_to_shared(ring));
    load_rows<G, R>(p, 0, t, qoff);
    // Column -1: H = 0, so Ĥ = -open; E = -infinity, so Ê = 0.
#pragma unroll
    for (int k = 0; k < R; ++k) hc[k] = open, er[k] = zero;
    V f = neg, diag = open, left = open, best = open, best_prev = open;
    // What lane 0 takes instead of the lane above's Ĥ and F: x * keep + fill
    // is x on other lanes, -open and kNeg on lane 0.
    const uint32_t keep = t == 0 ? 0u : one;
    const V fill_h = t == 0 ? open : zero, fill_f = t == 0 ? neg : zero;
    // The lane's pair and the column it ends at; the group's oldest pair not
    // yet reduced and the step at which the last lane has left it.
    uint32_t lane_pair = 0, cross_at = pq[0].end;
    uint32_t done = 0, reduce_at = pq[0].end + G - 1;

    // Columns before 0 (chunk -1) score as pad: H stays 0, as column 0 expects.
    fill(static_cast<uint32_t>(t - G), pad, pad);
    int next0, next1;
    codes(static_cast<uint32_t>(t), next0, next1);
    for (uint32_t c = 0;; c += G) {
        __syncwarp(mask);  // every lane is done with the slots this chunk overwrites
        if (done == pq.tail && !pq.more) return;
        refill(c + 2 * G);
        fill(c + static_cast<uint32_t>(t), next0, next1);
        codes(c + G + static_cast<uint32_t>(t), next0, next1);
        __syncwarp(mask);  // the profile is visible
        const uint32_t first = ring_base + ((c - static_cast<uint32_t>(t)) & (RS - 1)) * 4;
        // A chunk in which no lane reaches a pair's first column and no pair
        // is reduced (most chunks) runs a copy of the step without those
        // tests and without the two multiply-adds a row that restart a
        // crossing lane's rows. Pair ends are at least 2G apart, so only the
        // oldest unreduced one can fall in this chunk.
        const auto chunk = [&](auto busy) {
#pragma unroll U
            for (int u = 0; u < G; ++u) {
                const uint32_t step = c + static_cast<uint32_t>(u), v = step - static_cast<uint32_t>(t);
                V d = diag;
                // Busy chunks: a lane at its next pair's first column starts
                // its rows afresh by multiply-adds (x * 0 + reset), not by a
                // branch around every row.
                uint32_t kx = one;
                V hx = zero;
                if constexpr (decltype(busy)::value) {
                    const bool cross = v == cross_at;
                    kx = cross ? 0u : one;
                    hx = cross ? open : zero;
                    d = C::mad(d, kx, hx);
                    best_prev = cross ? best : best_prev;
                    best = C::mad(best, kx, hx);
                    if (cross) {
                        ++lane_pair;
                        cross_at = lane_pair < pq.tail ? pq[lane_pair].end : kNever;
                    }
                    if (step == reduce_at) {  // every lane has left pair `done`
                        const V b = group_max<C, G>(best_prev);
                        const SwQueued& e = pq[done];
                        if (t == 0) {
                            put_score<C>(p, e.t0, C::lane(b, 0) + p.gap_open);
                            put_score<C>(p, e.t1, C::lane(b, 1) + p.gap_open);
                        }
                        ++done;
                        reduce_at = done < pq.tail ? pq[done].end + G - 1 : kNever;
                    }
                }
                sw_rows<C, R, decltype(busy)::value>(qoff, one, ring_slot<G>(c, u, t, ring_base, first, four), d, hc,
                                                     er, f, best, kx, hx, open, ext);
                // Hand on downwards: diag for the next column is the H above of
                // this one (received a step ago), F the lane above's of the next.
                diag = left;
                left = C::mad(C::shfl_up(mask, hc[R - 1], G), keep, fill_h);
                f = C::mad(C::shfl_up(mask, f, G), keep, fill_f);
            }
        };
        if (warp_quiet<G>(reduce_at > c + 2 * G - 2)) chunk(std::false_type{});
        else chunk(std::true_type{});
    }
}

// Queries longer than W = G * R rows: P passes of W rows over every pair,
// (pair, pass) segments streamed back to back; the top boundary goes
// through the group's global slot and `stage` (docs/sw.md §6.1). Returns
// true once the group's virtual columns reach 2^31: the caller starts afresh.
template <class C, int G, int R, int U>
__device__ __forceinline__ bool sw_passes(const SwLaunchParams& p, const uint32_t* __restrict__ mq,
                                          uint32_t* __restrict__ ring, SwQueued* queue, uint8_t* slot,
                                          uint32_t stage, uint32_t zero_column) {
    using V = typename C::V;
    constexpr uint32_t RS = sw_ring_slots(G), BB = C::kBoundaryBytes;
    constexpr uint32_t W = G * R, kNever = 0xffffffffu, kLimit = 1u << 31;
    const unsigned mask = group_mask<G>();
    const int t = static_cast<int>(threadIdx.x) & (G - 1);
    const int alpha = p.alphabet, pad = alpha - 1;
    const uint32_t passes = (p.query_len + W - 1) / W;
    const uint32_t one = p.one, four = one << 2;
    const V neg = C::splat(C::kNeg), zero = C::splat(0);
    const V open = C::param(-p.gap_open, p.open_pair), ext = C::param(-p.gap_extend, p.extend_pair);

    SwPairQueue pq{queue};
    const auto refill = [&](uint32_t upto) { pq.refill<G>(p, mask, t, min(upto, kLimit), passes, 3u * G); };
    refill(2 * G);
    if (pq.tail == 0) return pq.more;

    const auto codes = [&](uint32_t v, int& c0, int& c1) { pq.codes<true>(v, pad, c0, c1); };
    const auto fill = [&](uint32_t v, int c0, int c1) { fill_profile<G>(mq, ring, alpha, v, c0, c1); };
    // Lane 0's top boundary of virtual column v: Ĥ of the row above and F
    // entering the pass's first row (a first pass: H = 0 above, no F).
    const auto top = [&](uint32_t v, V& h, V& f) {
        h = open;
        f = neg;
        if (v >= pq.tail_end) return;
        const SwQueued& e = pq.holding(v);
        const uint32_t k = v - e.start, nn = e.columns();
        if (k >= nn) C::load(slot + static_cast<size_t>(k % nn) * C::kBoundaryBytes, h, f);
    };

    uint32_t qoff[R];
    V hc[R], er[R];  // Ĥ and Ê of the rows
    const uint32_t ring_base = static_cast<uint32_t>(__cvta_generic_to_shared(ring));
    load_rows<G, R>(p, 0, t, qoff);
#pragma unroll
    for (int k = 0; k < R; ++k) hc[k] = open, er[k] = zero;
    V f = neg, diag = open, left = open, best = open, best_prev = open;
    // Lane 0 reads staged column u at top_at + u * top_step, the others the
    // zero column; x * keep + top is then x on other lanes, the top on lane 0.
    const uint32_t keep = t == 0 ? 0u : one;
    const uint32_t top_at = t == 0 ? stage : zero_column, top_step = t == 0 ? BB * one : 0u;
    // The lane's segment: pair, pass, first column, the column it ends at.
    uint32_t lane_pair = 0, lane_pass = 0, seg_start = 0, cross_at = pq[0].end;
    // The group's oldest segment end not every lane has crossed, and its
    // pair and pass.
    uint32_t ev_pair = 0, ev_pass = 0, ev_end = cross_at;

    // Columns before 0 (chunk -1) score as pad.
    fill(static_cast<uint32_t>(t - G), pad, pad);
    int next0, next1;
    codes(static_cast<uint32_t>(t), next0, next1);
    V bh_next, bf_next;
    top(static_cast<uint32_t>(1 + t), bh_next, bf_next);
    for (uint32_t c = 0;; c += G) {
        __syncwarp(mask);  // every lane is done with the slots this chunk overwrites
        if (ev_pair == pq.tail && !(pq.more && pq.tail_end < kLimit)) return pq.more;
        refill(c + 2 * G);
        fill(c + static_cast<uint32_t>(t), next0, next1);
        codes(c + G + static_cast<uint32_t>(t), next0, next1);
        // Lane 0 needs, after step c + u, the top of column c + u + 1: lane
        // t stages column c + 1 + t.
        C::store_shared(stage + static_cast<uint32_t>(t) * BB, bh_next, bf_next);
        top(c + G + 1 + static_cast<uint32_t>(t), bh_next, bf_next);
        __syncwarp(mask);  // the profile, the staged top and the boundary writes of earlier chunks are visible
        const uint32_t first = ring_base + ((c - static_cast<uint32_t>(t)) & (RS - 1)) * 4;
        // Quiet chunks: no lane crosses a segment's end, so the last lane's
        // column in its pass goes up by one a step from the chunk's first.
        // (Chunk 0, where it starts before column 0, is never quiet.)
        const bool store_quiet = t == G - 1 && lane_pass + 1 < passes;
        uint8_t* const store_at = slot + static_cast<size_t>(c - static_cast<uint32_t>(t) - seg_start) * BB;
        // Chunks in which no lane reaches a segment's first column and no
        // pair is reduced run the step without those tests (sw_stream).
        const auto chunk = [&](auto busy) {
#pragma unroll U
            for (int u = 0; u < G; ++u) {
                const uint32_t step = c + static_cast<uint32_t>(u), v = step - static_cast<uint32_t>(t);
                V d = diag;
                uint32_t kx = 1;
                V hx = zero;
                if constexpr (decltype(busy)::value) {
                    const bool cross = v == cross_at;
                    kx = cross ? 0u : 1u;
                    hx = cross ? open : zero;
                    d = C::mad(d, kx, hx);
                    if (cross) {
                        seg_start = v;
                        if (++lane_pass == passes) {
                            lane_pass = 0;
                            ++lane_pair;
                            best_prev = best;
                            best = open;
                        }
                        if (lane_pair < pq.tail) {
                            cross_at = v + pq[lane_pair].columns();
                        } else {  // past the last pair: pad columns, stored nowhere
                            cross_at = kNever;
                            lane_pass = passes - 1;
                        }
                        load_rows<G, R>(p, lane_pass, t, qoff);
                    }
                    if (step == ev_end + G - 1) {  // every lane has left segment (ev_pair, ev_pass)
                        if (++ev_pass == passes) {
                            const V b = group_max<C, G>(best_prev);
                            const SwQueued& e = pq[ev_pair];
                            if (t == 0) {
                                put_score<C>(p, e.t0, C::lane(b, 0) + p.gap_open);
                                put_score<C>(p, e.t1, C::lane(b, 1) + p.gap_open);
                            }
                            ev_pass = 0;
                            ++ev_pair;
                        }
                        ev_end = ev_pair < pq.tail ? ev_end + pq[ev_pair].columns() : kNever;
                    }
                }
                // A plain address add here: the multiply-add by p.one measured
                // slower in this kernel, whose registers are at their cap.
                sw_rows<C, R, decltype(busy)::value>(qoff, 1, ring_slot<G>(c, u, t, ring_base, first, four), d, hc, er,
                                                     f, best, kx, hx, open, ext);
                // Hand on downwards: diag for the next column is the Ĥ above
                // of this one (received a step ago), F the lane above's of the
                // next; lane 0 takes the top boundary.
                diag = left;
                if constexpr (decltype(busy)::value) {
                    const uint32_t j = v - seg_start;  // column within the pass
                    if (t == G - 1 && lane_pass + 1 < passes && j < cross_at - seg_start)
                        C::store(slot + static_cast<size_t>(j) * BB, hc[R - 1], f);
                } else if (store_quiet) {
                    C::store(store_at + static_cast<size_t>(u) * BB, hc[R - 1], f);
                }
                V th, tf;
                C::load_shared(static_cast<uint32_t>(u) * top_step + top_at, th, tf);
                left = C::mad(C::shfl_up(mask, hc[R - 1], G), keep, th);
                f = C::mad(C::shfl_up(mask, f, G), keep, tf);
            }
        };
        if (warp_quiet<G>(c != 0 && ev_end > c + G - 1)) chunk(std::false_type{});
        else chunk(std::true_type{});
    }
}

}  // namespace sw_detail

// Every pair of the launch through sw_stream (one pass) or sw_passes
// (Multi: queries longer than G * R, its own kernel, so that the one-pass
// form's registers are its own): a persistent grid of blocks of Threads
// lanes, groups of G, taking pairs in order from p.next_pair; MinBlocks
// caps the registers so that that many blocks share a multiprocessor; U is
// the unroll of the step loop.
template <class C, int G, int R, int Threads, int MinBlocks, bool Multi, int U>
__global__ void __launch_bounds__(Threads, MinBlocks) sw_kernel(SwLaunchParams p) {
    extern __shared__ __align__(16) uint32_t smem[];
    const int alpha = p.alphabet;
    for (int k = threadIdx.x; k < alpha * alpha; k += Threads) smem[k] = p.matrix[k];
    const int group = static_cast<int>(threadIdx.x) / G;
    uint32_t* ring = smem + alpha * alpha + group * (alpha * sw_ring_stride(G) + G);
    const uint32_t slot_index = blockIdx.x * (Threads / G) + static_cast<uint32_t>(group);
    uint8_t* slot = p.boundary ? p.boundary + static_cast<size_t>(slot_index) * p.boundary_columns * C::kBoundaryBytes
                               : nullptr;
    SwQueued* queue = reinterpret_cast<SwQueued*>(smem + sw_ring_words(alpha, G, Threads)) + group * kSwQueue;
    if constexpr (!Multi) {
        __syncthreads();
        sw_detail::sw_stream<C, G, R, U>(p, smem, ring, queue);
    } else {
        // The staged top boundary: G columns a group, then one zero column.
        uint32_t* tops = smem + sw_ring_words(alpha, G, Threads) + sw_queue_words(G, Threads);
        uint32_t* zero = tops + Threads * C::kBoundaryBytes / 4;
        if (threadIdx.x < C::kBoundaryBytes / 4) zero[threadIdx.x] = 0;
        __syncthreads();
        const uint32_t stage = static_cast<uint32_t>(__cvta_generic_to_shared(tops + group * G * C::kBoundaryBytes / 4));
        const uint32_t zero_column = static_cast<uint32_t>(__cvta_generic_to_shared(zero));
        while (sw_detail::sw_passes<C, G, R, U>(p, smem, ring, queue, slot, stage, zero_column)) {
        }
    }
}

using SwKernelFn = void (*)(SwLaunchParams);

// The launch entry of sw_kernel<C, G, R, 128, B, Multi, U>, an instance
// that the table kernels/sw/sw_configs.inc names. get() is defined only in
// the kernels/sw/sw_instantiations_*.cu unit that compiles that kernel
// (sw_instantiations.cuh), so that the build compiles the instances side by
// side; the engine (sw_cuda.cu) only calls it. Compiled = false is the empty
// instance each unit makes of the entries another unit compiles.
template <class C, int G, int R, int B, bool Multi, int U, bool Compiled = true>
struct SwKernelOf {};

template <class C, int G, int R, int B, bool Multi, int U>
struct SwKernelOf<C, G, R, B, Multi, U, true> {
    static SwKernelFn get();
};

}  // namespace warpdp::cuda
