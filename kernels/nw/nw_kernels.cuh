// gpu-nw-dist's CUDA kernels: NDist as a 16x2 DPX fill of the move codes
// plus a traceback that counts, SeqDist in FP64, both sweeping A in strips
// of R rows held in registers. Kernels only compute: device pointers, sizes
// and a parameter struct in, raw per-pair results out; nw_cuda.cu decides
// shapes and launches and turns raw results into distances with the CPU
// engine's code. Only pairs with la, lb >= 1 come here. Layouts and why the
// 16-bit keys are exact: docs/nw-cuda.md, "NDist: fill + traceback" and
// "SeqDist".
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

namespace warpdp::cuda {

inline constexpr int kNwBlock = 128;  // 4 warps

struct NwDeviceReads {
    const uint8_t* codes = nullptr;  // letter codes, each read 16-byte aligned; the buffer's tail is padded by the longest read + 64
    const uint64_t* off = nullptr;   // start of read i in codes
    const uint32_t* len = nullptr;
};

// Where an NDist fill warp (64 pairs) keeps its moves and its strip scratch.
struct NdWarp {
    uint64_t moves = 0;    // first 32-bit word in nd_moves: [strip][column][32 lanes][R / 8]
    uint64_t scratch = 0;  // first word in nd_scratch: [column][32 lanes]
    uint32_t cols = 0;     // longest B of the warp's pairs
    uint32_t unused = 0;
};

struct NwParams {
    NwDeviceReads rd;
    const uint2* pairs = nullptr;        // (a, b) read indices, in work order
    uint32_t n = 0;                      // pairs in this launch
    const NdWarp* nd_warps = nullptr;    // NDist: per fill warp
    uint32_t* nd_scratch = nullptr;      // NDist: packed clean keys of a strip's bottom row
    uint32_t* nd_moves = nullptr;        // NDist: move codes
    uint32_t* nd_out = nullptr;          // NDist: differences << 16 | columns, trailing run removed
    const uint64_t* warp_base = nullptr; // SeqDist: scratch element offset of each warp ([column][32 lanes])
    double* sd_f = nullptr;              // SeqDist: score of a strip's bottom row
    int32_t* sd_len = nullptr;           // SeqDist: length counter of a strip's bottom row
    double* sd_f_out = nullptr;          // SeqDist: F(la, lb)
    int32_t* sd_len_out = nullptr;       // SeqDist: nComp at (la, lb)
    double table[16] = {};               // SeqDist substitution costs, [a * 4 + b]
};

namespace nw_dev {
constexpr int32_t kUp = 0, kLeft = 1, kDiag = 2;
constexpr int32_t kCodeN = 8;    // nw_code::ndist_N
constexpr int32_t kCodeGap = 9;  // nw_code::ndist_gap: a literal '-', and what a gap column shows
constexpr uint32_t kNdistMaxLengths = 5000;  // la + lb of a pair the NDist kernels take
}  // namespace nw_dev

// The code of a letter pair in one 16-bit half: low half x, high half y.
__device__ __forceinline__ uint32_t nd_pack(uint32_t lo, uint32_t hi) { return lo | (hi << 16); }

// NDist fill, R rows per strip, two pairs per thread.
template <int R>
__global__ void __launch_bounds__(kNwBlock) nw_ndist_fill_kernel(NwParams p) {
    static_assert(R % 8 == 0, "8 rows per moves word");
    constexpr int W = R / 8;
    constexpr uint32_t kClean = 0xFFFCFFFCu, kCode = 0x00030003u;
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (2 * t >= p.n) return;
    const uint2 plo = p.pairs[2 * t];
    const uint2 phi = 2 * t + 1 < p.n ? p.pairs[2 * t + 1] : plo;  // an odd count: the hi half repeats lo
    const int32_t la_lo = static_cast<int32_t>(p.rd.len[plo.x]), lb_lo = static_cast<int32_t>(p.rd.len[plo.y]);
    const int32_t la_hi = static_cast<int32_t>(p.rd.len[phi.x]), lb_hi = static_cast<int32_t>(p.rd.len[phi.y]);
    const int32_t la = max(la_lo, la_hi), lb = max(lb_lo, lb_hi);
    const uint8_t* A_lo = p.rd.codes + p.rd.off[plo.x];
    const uint8_t* A_hi = p.rd.codes + p.rd.off[phi.x];
    const uint8_t* B_lo = p.rd.codes + p.rd.off[plo.y];
    const uint8_t* B_hi = p.rd.codes + p.rd.off[phi.y];
    const NdWarp wp = p.nd_warps[t / 32];
    const uint32_t lane = t % 32;
    uint32_t* scratch = p.nd_scratch + wp.scratch + lane;
    uint32_t* moves = p.nd_moves + wp.moves + lane * W;
    const size_t strip_words = static_cast<size_t>(wp.cols) * 32 * W;
    uint32_t K[R];  // clean keys of the current column
    // One strip from row i0 + 1. Only a strip holding row la of a half needs
    // per-row LEFT costs (free on row la); the others use the constant.
    auto strip = [&](int32_t i0, uint32_t* moves, auto edge) {
        constexpr bool kEdge = decltype(edge)::value;
        const bool first = i0 == 0;
        uint32_t a8[R], gl[kEdge ? R : 1];
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const int32_t i = i0 + r + 1;
            a8[r] = nd_pack(__ldg(A_lo + i - 1), __ldg(A_hi + i - 1)) << 3;
            if constexpr (kEdge) gl[r] = nd_pack(i == la_lo ? 1 : 13, i == la_hi ? 1 : 13);
            K[r] = static_cast<uint32_t>(12 * i) * 0x10001u;  // column 0
        }
        // The strip's top boundary (row i0) at column j - 1: the diagonal of row i0 + 1.
        uint32_t bK = static_cast<uint32_t>(12 * i0) * 0x10001u;
#pragma unroll 1
        for (int32_t j = 1; j <= lb; ++j) {
            const uint32_t y8 = nd_pack(__ldg(B_lo + j - 1), __ldg(B_hi + j - 1)) << 3;
            const uint32_t gu = nd_pack(j == lb_lo ? 0 : 12, j == lb_hi ? 0 : 12);  // UP is free on column lb
            uint32_t uK = first ? static_cast<uint32_t>(12 * j) * 0x10001u : scratch[static_cast<size_t>(j - 1) * 32];
            uint32_t dK = bK;
            bK = uK;
            uint32_t mv[W];
#pragma unroll
            for (int w = 0; w < W; ++w) mv[w] = 0;
#pragma unroll
            for (int r = 0; r < R; ++r) {
                // Diagonal cost 0 or 8 (letters equal or not) plus DIAG's code 2.
                const uint32_t m = __viaddmin_u16x2(y8 ^ a8[r], 0x00020002u, 0x000A000Au);
                const uint32_t kd = dK + m;
                const uint32_t k = __viaddmin_u16x2(uK, gu, __viaddmin_u16x2(K[r], kEdge ? gl[r] : 0x000D000Du, kd));
                mv[r / 8] = (mv[r / 8] << 2) | (k & kCode);  // row r % 8 at bits 2 * (7 - r % 8) (+16 for hi)
                dK = K[r];
                uK = K[r] = k & kClean;
            }
            uint32_t* at = moves + static_cast<size_t>(j - 1) * 32 * W;
            if constexpr (W == 1) {
                *at = mv[0];
            } else if constexpr (W == 2) {
                *reinterpret_cast<uint2*>(at) = make_uint2(mv[0], mv[1]);
            } else {
                static_assert(W % 4 == 0, "R = 8, 16 or a multiple of 32");
#pragma unroll
                for (int w = 0; w < W; w += 4)
                    reinterpret_cast<uint4*>(at)[w / 4] = make_uint4(mv[w], mv[w + 1], mv[w + 2], mv[w + 3]);
            }
            if (i0 + R < la) scratch[static_cast<size_t>(j - 1) * 32] = uK;
        }
    };
    for (int32_t i0 = 0; i0 < la; i0 += R, moves += strip_words) {
        const bool edge = (i0 < la_lo && la_lo <= i0 + R) || (i0 < la_hi && la_hi <= i0 + R);
        if (edge)
            strip(i0, moves, std::true_type{});
        else
            strip(i0, moves, std::false_type{});
    }
}

// NDist traceback, one thread per pair (work-order index q: fill thread q / 2,
// half q % 2): walks NDist's path from (la, lb) and counts its columns with
// NDist's rule (core/nw/nw_reference.cpp, ndist_columns_distance) in
// streaming form, a gap move showing kCodeGap (docs/nw-cuda.md, "NDist").
template <int R>
__global__ void __launch_bounds__(kNwBlock) nw_ndist_traceback_kernel(NwParams p) {
    using namespace nw_dev;
    constexpr int W = R / 8;
    const uint32_t q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= p.n) return;
    const uint32_t t = q / 2, half_shift = 16 * (q % 2);
    const uint2 pr = p.pairs[q];
    int32_t i = static_cast<int32_t>(p.rd.len[pr.x]), j = static_cast<int32_t>(p.rd.len[pr.y]);
    const uint8_t* A = p.rd.codes + p.rd.off[pr.x];
    const uint8_t* B = p.rd.codes + p.rd.off[pr.y];
    const NdWarp wp = p.nd_warps[t / 32];
    const uint32_t* moves = p.nd_moves + wp.moves + (t % 32) * W;
    const size_t strip_words = static_cast<size_t>(wp.cols) * 32 * W;
    uint32_t num = 0, den = 0;
    bool seen_x = false, seen_y = false;
    int32_t open = 0;  // 0 none, 1 a run of gaps in A, 2 in B
    auto column = [&](int32_t x, int32_t y) {
        const bool xg = x == kCodeGap, yg = y == kCodeGap;
        if (xg && yg) return;
        seen_x |= !xg;
        seen_y |= !yg;
        if (!(seen_x && seen_y)) return;
        if (xg || yg) {
            const int32_t kind = xg ? 1 : 2;
            if (open != kind) ++num, ++den;
            open = kind;
        } else {
            ++den;
            if (x != y && x != kCodeN && y != kCodeN) ++num;
            open = 0;
        }
    };
    while (i > 0 && j > 0) {
        const int32_t r = (i - 1) % R;
        const uint32_t word =
            __ldg(moves + static_cast<size_t>((i - 1) / R) * strip_words + static_cast<size_t>(j - 1) * 32 * W + r / 8);
        const int32_t code = static_cast<int32_t>(word >> (half_shift + 2 * (7 - r % 8))) & 3;
        if (code == kDiag) {
            --i, --j;
            column(__ldg(A + i), __ldg(B + j));
        } else if (code == kLeft) {
            --j;
            column(kCodeGap, __ldg(B + j));
        } else {
            --i;
            column(__ldg(A + i), kCodeGap);
        }
    }
    while (i > 0) column(__ldg(A + --i), kCodeGap);
    while (j > 0) column(kCodeGap, __ldg(B + --j));
    if (open != 0) --num, --den;
    p.nd_out[q] = num << 16 | den;
}

// One column of a SeqDist strip: R cells, the recurrence of nw_lanes::seqdist.
// kLastStrip: the strip may hold row la (whose LEFT moves are free);
// kLastCol: j == lb (UP moves are free). Both are compile-time so the common
// cells carry no selects for them; the arithmetic is the same in every case.
template <int R, bool kLastStrip, bool kLastCol>
__device__ __forceinline__ void seqdist_column(const int32_t (&ac)[R], const bool (&last_row)[R], const double* tab,
                                               double (&F)[R], int32_t (&L)[R], int32_t (&last)[R], int32_t y,
                                               double& fu, int32_t& uL, double dF, int32_t dL) {
    constexpr double gap = 15.0, homopolymer_gap = 4.0;
    constexpr int32_t kNone = 4;  // no letter: a mismatched DIAG column
#pragma unroll
    for (int r = 0; r < R; ++r) {
        // Homopolymer gap when B[j-1] extends the column that entered (i, j-1).
        const double gcost = y == last[r] ? homopolymer_gap : gap;
        const double fl = F[r];
        const double diag = dF + tab[ac[r] * 4 + y];
        const bool free_left = kLastStrip && last_row[r];
        const double left = free_left ? fl : fl + gcost;
        const double up = kLastCol ? fu : fu + gcost;
        // The move: DIAG if strictly below both, else LEFT if strictly below UP, else UP.
        const bool d_lt_l = diag < left;
        const bool is_diag = d_lt_l && diag < up;
        const bool is_left = !d_lt_l && left < up;
        const double dl = d_lt_l ? diag : left;
        const double f = up < dl ? up : dl;
        const int32_t len_left = L[r] + (free_left ? 0 : 1);
        const int32_t len_up = uL + (kLastCol ? 0 : 1);
        const int32_t len = is_diag ? dL + 1 : is_left ? len_left : len_up;
        const int32_t lc = is_diag ? (ac[r] == y ? y : kNone) : is_left ? y : ac[r];
        dF = fl, dL = L[r];
        fu = f, uL = len;
        F[r] = f, L[r] = len, last[r] = lc;
    }
}

// SeqDist, R rows per strip.
template <int R>
__global__ void __launch_bounds__(kNwBlock) nw_seqdist_kernel(NwParams p) {
    using namespace nw_dev;
    __shared__ double tab[16];
    if (threadIdx.x < 16) tab[threadIdx.x] = p.table[threadIdx.x];
    __syncthreads();
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= p.n) return;
    constexpr double gap = 15.0;
    const uint2 pr = p.pairs[t];
    const int32_t la = static_cast<int32_t>(p.rd.len[pr.x]), lb = static_cast<int32_t>(p.rd.len[pr.y]);
    const uint8_t* A = p.rd.codes + p.rd.off[pr.x];
    const uint8_t* B = p.rd.codes + p.rd.off[pr.y];
    const size_t base = p.warp_base[t / 32] + (t % 32);
    double* sf = p.sd_f + base;
    int32_t* sl = p.sd_len + base;
    double F[R];
    int32_t L[R], last[R];  // last: the letter of the column that entered the cell
    for (int32_t i0 = 0; i0 < la; i0 += R) {
        const bool first = i0 == 0;
        int32_t ac[R];
        bool last_row[R];
#pragma unroll
        for (int r = 0; r < R; ++r) {
            ac[r] = __ldg(A + i0 + r) & 3;  // rows past la: any letter
            last_row[r] = i0 + r + 1 == la;
            F[r] = gap * static_cast<double>(i0 + r + 1);
            L[r] = i0 + r + 1;
            last[r] = ac[r];  // column 0: entered by an UP move, consuming A[i-1]
        }
        auto sweep = [&](auto last_strip) {
            constexpr bool kLastStrip = decltype(last_strip)::value;
            double bF = gap * static_cast<double>(i0);
            int32_t bL = i0;
            for (int32_t j = 1; j <= lb; ++j) {
                const int32_t y = __ldg(B + j - 1);
                double fu;
                int32_t uL;
                if (first) {
                    fu = gap * static_cast<double>(j), uL = j;
                } else {
                    fu = sf[static_cast<size_t>(j - 1) * 32];
                    uL = sl[static_cast<size_t>(j - 1) * 32];
                }
                const double dF = bF;
                const int32_t dL = bL;
                bF = fu, bL = uL;
                if (j < lb) seqdist_column<R, kLastStrip, false>(ac, last_row, tab, F, L, last, y, fu, uL, dF, dL);
                else seqdist_column<R, kLastStrip, true>(ac, last_row, tab, F, L, last, y, fu, uL, dF, dL);
                if (i0 + R < la) {
                    sf[static_cast<size_t>(j - 1) * 32] = fu;
                    sl[static_cast<size_t>(j - 1) * 32] = uL;
                }
            }
        };
        if (i0 + R >= la) sweep(std::true_type{});
        else sweep(std::false_type{});
    }
    const int32_t end_row = la - 1 - ((la - 1) / R) * R;
    double f = 0;
    int32_t len = 0;
#pragma unroll
    for (int r = 0; r < R; ++r)
        if (r == end_row) f = F[r], len = L[r];
    p.sd_f_out[t] = f;
    p.sd_len_out[t] = len;
}

}  // namespace warpdp::cuda
