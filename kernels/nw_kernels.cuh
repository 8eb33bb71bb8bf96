// gpu-nw-dist's CUDA kernels: the forward forms of NDist and SeqDist
// (core/nw_forward.hpp, core/nw_lanes.hpp), one thread per pair, exactly the
// per-cell operations of the CPU lane kernels. Kernels only compute: device
// pointers, sizes and a parameter struct in, raw end-of-matrix state out;
// nw_cuda.cu decides shapes and launches, and turns the raw state into the
// distance with the same host code as the CPU engine.
//
// Layout. A thread sweeps its A read in strips of R rows (R a template
// argument) held in registers; for each strip it runs over the columns
// j = 1..lb of B, computing R cells per column. The bottom row of a strip
// (what the next strip reads as its "up" row) goes to a global scratch laid
// out per warp as [column][lane], so a warp's loads and stores are one
// coalesced 256-byte (NDist) or 256+128-byte (SeqDist) transaction per
// column. The first strip takes row 0 from its closed form. Rows past la in
// the last strip compute values nobody reads (no cell depends on a lower
// row). Only pairs with la, lb >= 1 come here (the host handles empty reads).
//
// Exactness. NDist: int32 keys (2*score)<<2 | move code, chosen by DPX
// __viaddmin_s32 (exact: the keys are < 2^22), and the packed counts
// differences<<16 | columns<<1 selected
// by the winner's code (la + lb < 32768, checked by the host; see the NDist
// kernel's encodings). SeqDist: FP64, the same adds in the same order and
// the same strict comparisons as nw_lanes.hpp; the project compiles CUDA with
// --fmad=false, and there is no multiply-add to contract anyway.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace warpdp::cuda {

inline constexpr int kNwBlock = 128;  // 4 warps

struct NwDeviceReads {
    const uint8_t* codes = nullptr;  // letter codes, each read 16-byte aligned, padded (tail >= 64 bytes)
    const uint64_t* off = nullptr;   // start of read i in codes
    const uint32_t* len = nullptr;
};

struct NwParams {
    NwDeviceReads rd;
    const uint2* pairs = nullptr;        // (a, b) read indices, in work order
    uint32_t n = 0;                      // pairs in this launch
    const uint64_t* warp_base = nullptr; // scratch element offset of each warp ([column][32 lanes])
    int2* nd_scratch = nullptr;          // NDist: (key, counts) of a strip's bottom row
    double* sd_f = nullptr;              // SeqDist: score of a strip's bottom row
    int32_t* sd_len = nullptr;           // SeqDist: length counter of a strip's bottom row
    int2* nd_out = nullptr;              // NDist: (counts, final move code) at (la, lb), kernel encodings
    double* sd_f_out = nullptr;          // SeqDist: F(la, lb)
    int32_t* sd_len_out = nullptr;       // SeqDist: nComp at (la, lb)
    double table[16] = {};               // SeqDist substitution costs, [a * 4 + b]
};

namespace nw_dev {
constexpr int32_t kUp = 0, kLeft = 1, kDiag = 2;
constexpr int32_t kOneRun = 0x10001;
constexpr int32_t kCodeN = 8;  // nw_code::ndist_N
}  // namespace nw_dev

// NDist, R rows per strip. Cell recurrence as nw_lanes::ndist, with two
// encodings that save instructions (the host converts back, nw_cuda.cu):
//  - move codes UP 1 < LEFT 2 < DIAG 3 (same order, so the same minimum), so
//    "the left neighbour's move is not LEFT" is its key's bit 0 and "the up
//    neighbour's move is not UP" is its bit 1;
//  - counts as differences << 16 | columns << 1, so a new gap run adds
//    0x10002 = (key & 1) * 0x10002 = (key & 2) * 0x8001: one AND and one IMAD
//    (the FMA pipe) each. Needs columns < 32768: the host sends only pairs
//    with la + lb < 32768.
namespace nd_code {
constexpr int32_t kUp = 1, kLeft = 2, kDiag = 3;
constexpr int32_t kRun = 0x10002, kColumn = 2;
}  // namespace nd_code

template <int R>
__global__ void __launch_bounds__(kNwBlock) nw_ndist_kernel(NwParams p) {
    using namespace nd_code;
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= p.n) return;
    const uint2 pr = p.pairs[t];
    const int32_t la = static_cast<int32_t>(p.rd.len[pr.x]), lb = static_cast<int32_t>(p.rd.len[pr.y]);
    const uint8_t* A = p.rd.codes + p.rd.off[pr.x];
    const uint8_t* B = p.rd.codes + p.rd.off[pr.y];
    int2* scratch = p.nd_scratch + p.warp_base[t / 32] + (t % 32);
    int32_t K[R], S[R];
    for (int32_t i0 = 0; i0 < la; i0 += R) {
        const bool first = i0 == 0;
        int32_t ac[R], gl[R];
        bool an[R];
#pragma unroll
        for (int r = 0; r < R; ++r) {
            ac[r] = __ldg(A + i0 + r);
            an[r] = ac[r] == nw_dev::kCodeN;
            gl[r] = (i0 + r + 1 == la ? 0 : 12) + kLeft;
            K[r] = 12 * (i0 + r + 1) + kUp;  // column 0
            S[r] = 0;
        }
        // The strip's top boundary (row i0) at column j - 1: the diagonal of row i0 + 1.
        int32_t bK = first ? kLeft : 12 * i0 + kUp, bS = 0;
        for (int32_t j = 1; j <= lb; ++j) {
            const int32_t y = __ldg(B + j - 1);
            const bool yn = y == nw_dev::kCodeN;
            const int32_t gu = (j == lb ? 0 : 12) + kUp;
            int32_t uK, uS;
            if (first) {
                uK = 12 * j + kLeft, uS = 0;
            } else {
                const int2 v = scratch[static_cast<size_t>(j - 1) * 32];
                uK = v.x, uS = v.y;
            }
            int32_t dK = bK, dS = bS;
            bK = uK, bS = uS;
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const int32_t lK = K[r], lS = S[r];
                const bool mis = y != ac[r];
                const bool dif = mis && !an[r] && !yn;
                const int32_t kd = (dK & ~3) + (mis ? 8 + kDiag : kDiag);
                const int32_t k = __viaddmin_s32(lK & ~3, gl[r], __viaddmin_s32(uK & ~3, gu, kd));
                const int32_t c = k & 3;
                const int32_t sd = dS + (dif ? kRun : kColumn);
                const int32_t sl = (lK & 1) * kRun + lS;
                const int32_t su = (uK & 2) * (kRun / 2) + uS;
                const int32_t s = c == kDiag ? sd : (c == kLeft ? sl : su);
                dK = lK, dS = lS;
                uK = k, uS = s;
                K[r] = k, S[r] = s;
            }
            if (i0 + R < la) scratch[static_cast<size_t>(j - 1) * 32] = make_int2(uK, uS);
        }
    }
    // (la, lb) sits in the last strip; K and S hold its column lb.
    const int32_t last = la - 1 - ((la - 1) / R) * R;
    int2 res = make_int2(0, 0);
#pragma unroll
    for (int r = 0; r < R; ++r)
        if (r == last) res = make_int2(S[r], K[r] & 3);
    p.nd_out[t] = res;
}

// SeqDist, R rows per strip. Cell recurrence as nw_lanes::seqdist.
template <int R>
__global__ void __launch_bounds__(kNwBlock) nw_seqdist_kernel(NwParams p) {
    using namespace nw_dev;
    __shared__ double tab[16];
    if (threadIdx.x < 16) tab[threadIdx.x] = p.table[threadIdx.x];
    __syncthreads();
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= p.n) return;
    constexpr double gap = 15.0, homopolymer_gap = 4.0;
    const uint2 pr = p.pairs[t];
    const int32_t la = static_cast<int32_t>(p.rd.len[pr.x]), lb = static_cast<int32_t>(p.rd.len[pr.y]);
    const uint8_t* A = p.rd.codes + p.rd.off[pr.x];
    const uint8_t* B = p.rd.codes + p.rd.off[pr.y];
    const size_t base = p.warp_base[t / 32] + (t % 32);
    double* sf = p.sd_f + base;
    int32_t* sl = p.sd_len + base;
    double F[R];
    int32_t L[R], M[R];
    for (int32_t i0 = 0; i0 < la; i0 += R) {
        const bool first = i0 == 0;
        int32_t ac[R];
        bool last_row[R];
        const double* trow[R];
#pragma unroll
        for (int r = 0; r < R; ++r) {
            ac[r] = __ldg(A + i0 + r) & 3;  // rows past la: any letter
            last_row[r] = i0 + r + 1 == la;
            trow[r] = tab + ac[r] * 4;
            F[r] = gap * static_cast<double>(i0 + r + 1);
            L[r] = i0 + r + 1;
            M[r] = kUp;
        }
        double bF = gap * static_cast<double>(i0);
        int32_t bL = i0;
        int32_t yp = 0;  // B[j - 2]; only read when the left move used it (j >= 2)
        for (int32_t j = 1; j <= lb; ++j) {
            const int32_t y = __ldg(B + j - 1);
            const bool last_col = j == lb;
            double fu;
            int32_t uL;
            if (first) {
                fu = gap * static_cast<double>(j), uL = j;
            } else {
                fu = sf[static_cast<size_t>(j - 1) * 32];
                uL = sl[static_cast<size_t>(j - 1) * 32];
            }
            double dF = bF;
            int32_t dL = bL;
            bF = fu, bL = uL;
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const int32_t lm = M[r];
                const bool hp = lm == kDiag ? (ac[r] == yp && y == ac[r]) : lm == kLeft ? y == yp : y == ac[r];
                const double gcost = hp ? homopolymer_gap : gap;
                const double fl = F[r];
                const double diag = dF + trow[r][y];
                const double left = last_row[r] ? fl : fl + gcost;
                const double up = last_col ? fu : fu + gcost;
                const int32_t mv = diag < left ? (diag < up ? kDiag : kUp) : (left < up ? kLeft : kUp);
                const double dl = diag < left ? diag : left;
                const double f = up < dl ? up : dl;
                const int32_t len_left = L[r] + (last_row[r] ? 0 : 1);
                const int32_t len_up = uL + (last_col ? 0 : 1);
                const int32_t len = mv == kDiag ? dL + 1 : mv == kLeft ? len_left : len_up;
                dF = fl, dL = L[r];
                fu = f, uL = len;
                F[r] = f, L[r] = len, M[r] = mv;
            }
            if (i0 + R < la) {
                sf[static_cast<size_t>(j - 1) * 32] = fu;
                sl[static_cast<size_t>(j - 1) * 32] = uL;
            }
            yp = y;
        }
    }
    const int32_t last = la - 1 - ((la - 1) / R) * R;
    double f = 0;
    int32_t len = 0;
#pragma unroll
    for (int r = 0; r < R; ++r)
        if (r == last) f = F[r], len = L[r];
    p.sd_f_out[t] = f;
    p.sd_len_out[t] = len;
}

}  // namespace warpdp::cuda
