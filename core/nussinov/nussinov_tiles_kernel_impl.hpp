// The Nussinov CPU engine's tile kernel (docs/nussinov.md §6), written once
// over GCC vector types (32 bytes in the AVX2 file: 16 int16 or 8 int32
// lanes; 16 bytes in the baseline file). Included only by
// nussinov_tiles_base.cpp and nussinov_tiles_avx2.cpp (inside its AVX2
// target region), which instantiate it per instruction set; everything here
// is local to the including file (an anonymous namespace).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/nussinov/nussinov_tiles_kernels.hpp"

// No function passes a 32-byte vector by value between files, so GCC's note
// that such passing differs between the SSE2 and AVX2 ABIs is moot.
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace warpdp::nussinov_tiles {
namespace {

// GCC takes vector_size only on a concrete type, hence one entry a width.
// The baseline file uses 16-byte vectors: GCC lowers compares of a 32-byte
// vector element by element where only 16-byte registers exist.
using I16x16 = int16_t __attribute__((vector_size(32)));
using I32x8 = int32_t __attribute__((vector_size(32)));
using I16x8 = int16_t __attribute__((vector_size(16)));
using I32x4 = int32_t __attribute__((vector_size(16)));

template <class T, unsigned Bytes>
struct Lanes;
template <>
struct Lanes<int16_t, 32> {
    using V = I16x16;
    static constexpr uint32_t W = 16;
};
template <>
struct Lanes<int32_t, 32> {
    using V = I32x8;
    static constexpr uint32_t W = 8;
};
template <>
struct Lanes<int16_t, 16> {
    using V = I16x8;
    static constexpr uint32_t W = 8;
};
template <>
struct Lanes<int32_t, 16> {
    using V = I32x4;
    static constexpr uint32_t W = 4;
};

template <class V>
[[gnu::always_inline]] inline V vmax(V a, V b) {
    return a > b ? a : b;
}

// The k-range of the bulk is walked in blocks of this many rows k + 1, so
// that the rows' pieces (kKBlock x 2 vectors) stay in the L1 cache while
// every group of four rows i passes over them.
constexpr uint64_t kKBlock = 256;

// P[a * B + c] = max over k in [klo, khi] of C(i0 + a, k) + C(k + 1, j0 + c),
// for the vectors [cv, cv + RB) of columns: rows i in groups of four.
template <class T, unsigned Bytes, int RB>
void bulk_columns(const TileJob& job, T* P, uint32_t cv, uint64_t klo, uint64_t khi) {
    using V = typename Lanes<T, Bytes>::V;
    constexpr uint32_t W = Lanes<T, Bytes>::W;
    T* cells = static_cast<T*>(job.cells);
    const uint32_t B = job.tile;
    for (uint64_t kb = klo; kb <= khi; kb += kKBlock) {
        const uint64_t ke = khi + 1 < kb + kKBlock ? khi + 1 : kb + kKBlock;
        for (uint32_t a = 0; a < B; a += 4) {
            const T* x[4];
            for (int r = 0; r < 4; ++r) x[r] = cells + job.row_off[job.i0 + a + static_cast<uint32_t>(r)];
            V acc[4][RB];
            for (int r = 0; r < 4; ++r)
                for (int v = 0; v < RB; ++v)
                    acc[r][v] = *reinterpret_cast<const V*>(P + size_t{a + static_cast<uint32_t>(r)} * B + (cv + static_cast<uint32_t>(v)) * W);
            for (uint64_t k = kb; k < ke; ++k) {
                const T* y = cells + job.row_off[k + 1] + job.j0 + size_t{cv} * W;
                V yv[RB];
                for (int v = 0; v < RB; ++v) yv[v] = *reinterpret_cast<const V*>(y + size_t{static_cast<uint32_t>(v)} * W);
                for (int r = 0; r < 4; ++r) {
                    const V xv = V{} + x[r][k];
                    for (int v = 0; v < RB; ++v) acc[r][v] = vmax(acc[r][v], xv + yv[v]);
                }
            }
            for (int r = 0; r < 4; ++r)
                for (int v = 0; v < RB; ++v)
                    *reinterpret_cast<V*>(P + size_t{a + static_cast<uint32_t>(r)} * B + (cv + static_cast<uint32_t>(v)) * W) = acc[r][v];
        }
    }
}

template <class T, unsigned Bytes>
void tile(const TileJob& job) {
    using V = typename Lanes<T, Bytes>::V;
    constexpr uint32_t W = Lanes<T, Bytes>::W;
    T* cells = static_cast<T*>(job.cells);
    const uint32_t B = job.tile, NV = B / W;
    const uint64_t i0 = job.i0, j0 = job.j0;
    const bool diagonal = i0 == j0;
    T* P = static_cast<T*>(job.scratch);  // the bulk's maxima, B x B
    V* acc = reinterpret_cast<V*>(P + size_t{B} * B);
    auto row = [&](uint64_t i) { return cells + job.row_off[i]; };

    if (!diagonal) {
        for (size_t c = 0; c < size_t{B} * B; c += W) *reinterpret_cast<V*>(P + c) = V{};  // every C is >= 0
        // k in [i0 + B - 1, j0 - 1]: operands in finished tiles only.
        const uint64_t klo = i0 + B - 1, khi = j0 - 1;
        uint32_t cv = 0;
        for (; cv + 2 <= NV; cv += 2) bulk_columns<T, Bytes, 2>(job, P, cv, klo, khi);
        if (cv < NV) bulk_columns<T, Bytes, 1>(job, P, cv, klo, khi);
    }
    const uint8_t* codes = job.codes;
    for (uint64_t i = i0 + B; i-- > i0;) {
        T* ri = row(i);
        const uint32_t a = static_cast<uint32_t>(i - i0);
        if (diagonal) {
            for (uint32_t v = 0; v < NV; ++v) acc[v] = V{};
        } else {
            for (uint32_t v = 0; v < NV; ++v) acc[v] = *reinterpret_cast<const V*>(P + size_t{a} * B + size_t{v} * W);
            // k in [i, i0 + B - 2]: rows k + 1 of this tile, finished below row i.
            for (uint64_t k = i; k + 1 < i0 + B; ++k) {
                const V x = V{} + ri[k];
                const V* y = reinterpret_cast<const V*>(row(k + 1) + j0);
                for (uint32_t v = 0; v < NV; ++v) acc[v] = vmax(acc[v], x + y[v]);
            }
        }
        // k in [j0, j - 1] (a diagonal tile: [i, j - 1]): each C(i, j), once
        // final, is pushed to the columns on its right. Lanes left of j + 1
        // read the zero cells left of row j + 1's diagonal and are never used.
        const uint8_t ci = codes[i];
        const int32_t* wi = job.weight + 5 * ci;
        const uint64_t jb = j0 + B;
        for (uint64_t j = diagonal ? i : j0; j < jb; ++j) {
            const uint64_t c = j - j0;
            T best = acc[c / W][c % W];
            const int32_t w = wi[codes[j]];
            if (w >= 0 && static_cast<int64_t>(j - i) - 1 >= job.min_loop) {
                const T inside = i + 1 < j ? row(i + 1)[j - 1] : T{0};
                const T paired = static_cast<T>(inside + w);
                if (paired > best) best = paired;
            }
            ri[j] = best;
            if (j + 1 < jb) {
                const V x = V{} + best;
                const V* y = reinterpret_cast<const V*>(row(j + 1) + j0);
                for (uint32_t v = static_cast<uint32_t>((c + 1) / W); v < NV; ++v) acc[v] = vmax(acc[v], x + y[v]);
            }
        }
    }
}

}  // namespace
}  // namespace warpdp::nussinov_tiles
