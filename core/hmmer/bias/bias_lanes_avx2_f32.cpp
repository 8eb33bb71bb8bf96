// The bias filter's scaled Forward on eight AVX2 lanes, one target per lane
// (bias_lanes_kernels.hpp). Each lane repeats the scalar loop's float
// operations in its order (no FMA: this file, like all of core, is built with
// -ffp-contract=off), so only the logarithm needs care: the scalar loop
// rounds glibc's double log of each row's scale factor to float, and a
// vector log cannot call glibc. log8 below computes that double log to
// within ~2^-50 of its value and rounds it to float; where a rounding of
// the value moved by 2^-40 of itself (far more than both functions' errors:
// glibc's log is within an ulp, 2^-52) could round differently, the lane
// falls back to std::log. Such ties are about one log in 2^16, and every
// float the filter can meet, and more, is checked against std::log in
// tests/core/hmmer/bias/test_bias_filter.cpp.
//
// What this file defines is compiled for AVX2 (a target region opened after
// every include: core/base/simd_variants.hpp says why not -mavx2); it runs
// only when cpu_supports(CpuIsa::avx2) (bias_filter.cpp).
#include "core/hmmer/bias/bias_lanes_kernels.hpp"

#if defined(__x86_64__)
#include <immintrin.h>

#include <cmath>
#include <cstdint>

#include "core/hmmer/bias/bias_step.hpp"

#include "core/base/avx2_region_begin.hpp"  // (after every other include)

namespace warpdp::bias_lanes {
namespace {

// An odds table of up to 32 codes in four registers: a lookup is four
// permutes and three blends, where a gather would wait on eight loads.
struct OddsTable {
    __m256 q[4];
    bool all_one = true;  // every code's odds is 1.0f
    OddsTable(const float* odds, int Kp) {
        alignas(32) float t[kMaxCodes];
        for (int x = 0; x < kMaxCodes; ++x) {
            t[x] = x < Kp ? odds[x] : 1.0f;
            all_one = all_one && t[x] == 1.0f;
        }
        for (int i = 0; i < 4; ++i) q[i] = _mm256_load_ps(t + 8 * i);
    }
    __m256 lookup(__m256i x) const {
        const __m256 lo = _mm256_blendv_ps(_mm256_permutevar8x32_ps(q[0], x), _mm256_permutevar8x32_ps(q[1], x),
                                           _mm256_castsi256_ps(_mm256_slli_epi32(x, 28)));  // by bit 3
        const __m256 hi = _mm256_blendv_ps(_mm256_permutevar8x32_ps(q[2], x), _mm256_permutevar8x32_ps(q[3], x),
                                           _mm256_castsi256_ps(_mm256_slli_epi32(x, 28)));
        return _mm256_blendv_ps(lo, hi, _mm256_castsi256_ps(_mm256_slli_epi32(x, 27)));  // by bit 4
    }
};

// fdlibm's split of ln 2: e * kLn2Hi is exact for |e| < 2^20.
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;

// a + z*b
inline __m256d pair(__m256d z, double a, double b) {
    return _mm256_add_pd(_mm256_set1_pd(a), _mm256_mul_pd(z, _mm256_set1_pd(b)));
}

// Four of the eight lanes: m = 2^e * f with f in [0.707, 1.414), so that m
// near 1 never cancels e*ln2; log(f) = 2 atanh(s) with s = (f-1)/(f+1)
// (|s| < 0.172: f-1 and f+1 are exact, s is one rounding off) summed to
// z^9/19, z = s^2 (the rest is below 2^-55 of the sum). In ok, whether the
// rounding to float is certain.
inline __m128 log4(__m128 f, __m128i e, __m128& ok) {
    const __m256d fd = _mm256_cvtps_pd(f);
    const __m256d one = _mm256_set1_pd(1.0);
    const __m256d s = _mm256_div_pd(_mm256_sub_pd(fd, one), _mm256_add_pd(fd, one));
    const __m256d z = _mm256_mul_pd(s, s);
    // q = 1/3 + z/5 + ... + z^8/19 by Estrin's scheme (a short dependency chain)
    const __m256d z2 = _mm256_mul_pd(z, z), z4 = _mm256_mul_pd(z2, z2), z8 = _mm256_mul_pd(z4, z4);
    const __m256d q03 = _mm256_add_pd(pair(z, 1.0 / 3, 1.0 / 5), _mm256_mul_pd(z2, pair(z, 1.0 / 7, 1.0 / 9)));
    const __m256d q47 = _mm256_add_pd(pair(z, 1.0 / 11, 1.0 / 13), _mm256_mul_pd(z2, pair(z, 1.0 / 15, 1.0 / 17)));
    const __m256d q = _mm256_add_pd(_mm256_add_pd(q03, _mm256_mul_pd(z4, q47)), _mm256_mul_pd(z8, _mm256_set1_pd(1.0 / 19)));
    const __m256d t = _mm256_add_pd(s, s);
    const __m256d log_f = _mm256_add_pd(t, _mm256_mul_pd(_mm256_mul_pd(t, z), q));
    const __m256d ed = _mm256_cvtepi32_pd(e);
    const __m256d y = _mm256_add_pd(_mm256_mul_pd(ed, _mm256_set1_pd(kLn2Hi)),
                                    _mm256_add_pd(_mm256_mul_pd(ed, _mm256_set1_pd(kLn2Lo)), log_f));
    const __m256d abs_y = _mm256_andnot_pd(_mm256_set1_pd(-0.0), y);
    const __m256d eps = _mm256_mul_pd(abs_y, _mm256_set1_pd(0x1p-40));
    const __m128 below = _mm256_cvtpd_ps(_mm256_sub_pd(y, eps));
    const __m128 above = _mm256_cvtpd_ps(_mm256_add_pd(y, eps));
    ok = _mm_cmpeq_ps(below, above);
    return _mm256_cvtpd_ps(y);
}

// (float)log((double)m) in each lane, exactly as bias_step::log_scale gives it.
inline __m256 log8(__m256 m) {
    const __m256i bits = _mm256_castps_si256(m);
    // the fast path takes positive normal floats; zero, subnormals, infinities, NaNs and negatives fall back
    const __m256i normal = _mm256_and_si256(_mm256_cmpgt_epi32(bits, _mm256_set1_epi32(0x007fffff)),
                                            _mm256_cmpgt_epi32(_mm256_set1_epi32(0x7f800000), bits));
    // (bits moved so that the exponent steps up at f = 0.707 instead of 1)
    const __m256i shifted = _mm256_add_epi32(bits, _mm256_set1_epi32(0x3f800000 - 0x3f3504f3));
    const __m256i e = _mm256_sub_epi32(_mm256_srli_epi32(shifted, 23), _mm256_set1_epi32(127));
    const __m256 f = _mm256_castsi256_ps(
        _mm256_add_epi32(_mm256_and_si256(shifted, _mm256_set1_epi32(0x007fffff)), _mm256_set1_epi32(0x3f3504f3)));
    __m128 ok_lo, ok_hi;
    const __m128 lo = log4(_mm256_castps256_ps128(f), _mm256_castsi256_si128(e), ok_lo);
    const __m128 hi = log4(_mm256_extractf128_ps(f, 1), _mm256_extracti128_si256(e, 1), ok_hi);
    __m256 y = _mm256_set_m128(hi, lo);
    const __m256 ok = _mm256_and_ps(_mm256_set_m128(ok_hi, ok_lo), _mm256_castsi256_ps(normal));
    const int unsure = ~_mm256_movemask_ps(ok) & 0xff;
    if (unsure != 0) {
        alignas(32) float ms[8], ys[8];
        _mm256_store_ps(ms, m);
        _mm256_store_ps(ys, y);
        for (int l = 0; l < 8; ++l)
            if (unsure >> l & 1) ys[l] = bias_step::log_scale(ms[l]);
        y = _mm256_load_ps(ys);
    }
    return y;
}

}  // namespace

void log_avx2(const float* in, size_t n, float* out) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, log8(_mm256_loadu_ps(in + i)));
    if (i < n) {
        alignas(32) float a[8] = {1, 1, 1, 1, 1, 1, 1, 1}, b[8];
        for (size_t k = i; k < n; ++k) a[k - i] = in[k];
        _mm256_store_ps(b, log8(_mm256_load_ps(a)));
        for (size_t k = i; k < n; ++k) out[k] = b[k - i];
    }
}

void forward_avx2(const Model& mdl, const uint8_t* const* seqs, const uint64_t* lens, const float* p1s, size_t n,
                  float* out) {
    constexpr int W = 8;
    const OddsTable odds0(mdl.odds0, mdl.Kp), odds1(mdl.odds1, mdl.Kp);
    alignas(32) float d0[W], d1[W], F[W], t00[W], t01[W];
    const uint8_t* at[W];  // the lane's next residue
    uint64_t left[W];      // residues still to come in the lane's target
    size_t who[W];
    bool live[W];
    size_t next = 0;
    // A lane takes the next target and its first residue (scalar), or idles.
    const auto start = [&](int l) {
        if (next == n) {
            live[l] = false;
            d0[l] = 1.0f, d1[l] = 0.0f, F[l] = 0.0f, t00[l] = 1.0f, t01[l] = 0.0f;
            return;
        }
        const size_t i = next++;
        who[l] = i;
        t00[l] = p1s[i];
        t01[l] = 1.0f - p1s[i];
        F[l] = bias_step::first(mdl.odds0, mdl.odds1, seqs[i][0], d0[l], d1[l]);
        at[l] = seqs[i] + 1;
        left[l] = lens[i] - 1;
        live[l] = true;
    };
    for (int l = 0; l < W; ++l) start(l);
    const __m256 zero = _mm256_setzero_ps();
    const __m256 t10 = _mm256_set1_ps(mdl.t10), t11 = _mm256_set1_ps(mdl.t11);
    // The rows' scale factors wait here for their logs: the recurrence runs
    // ahead without them (its chain is a division per row), and the logs of
    // a block are independent of each other.
    constexpr uint64_t kRows = 64;
    alignas(32) float scale[kRows][W];
    for (;;) {
        // Every live lane runs k rows, k its shortest remainder; idle lanes
        // read a live lane's residues and their results are dropped.
        int any = -1;
        uint64_t k = UINT64_MAX;
        for (int l = 0; l < W; ++l)
            if (live[l]) {
                any = l;
                if (left[l] < k) k = left[l];
            }
        if (any < 0) break;
        for (int l = 0; l < W; ++l)
            if (!live[l]) at[l] = at[any];
        __m256 v0 = _mm256_load_ps(d0), v1 = _mm256_load_ps(d1), vF = _mm256_load_ps(F);
        const __m256 a00 = _mm256_load_ps(t00), a01 = _mm256_load_ps(t01);
        for (uint64_t s0 = 0; s0 < k; s0 += kRows) {
            const uint64_t rows = k - s0 < kRows ? k - s0 : kRows;
            for (uint64_t r = 0; r < rows; ++r) {
                const uint64_t s = s0 + r;
                const __m256i x = _mm256_setr_epi32(at[0][s], at[1][s], at[2][s], at[3][s], at[4][s], at[5][s],
                                                    at[6][s], at[7][s]);
                __m256 n0 = _mm256_add_ps(zero, _mm256_mul_ps(v0, a00));
                n0 = _mm256_add_ps(n0, _mm256_mul_ps(v1, t10));
                if (!odds0.all_one) n0 = _mm256_mul_ps(n0, odds0.lookup(x));  // (x * 1.0f is x: skipped)
                __m256 n1 = _mm256_add_ps(zero, _mm256_mul_ps(v0, a01));
                n1 = _mm256_add_ps(n1, _mm256_mul_ps(v1, t11));
                n1 = _mm256_mul_ps(n1, odds1.lookup(x));
                // m = 0; if (n0 > m) m = n0; if (n1 > m) m = n1;
                __m256 m = _mm256_blendv_ps(zero, n0, _mm256_cmp_ps(n0, zero, _CMP_GT_OQ));
                m = _mm256_blendv_ps(m, n1, _mm256_cmp_ps(n1, m, _CMP_GT_OQ));
                v0 = _mm256_div_ps(n0, m);
                v1 = _mm256_div_ps(n1, m);
                _mm256_store_ps(scale[r], m);
            }
            for (uint64_t r = 0; r < rows; ++r) vF = _mm256_add_ps(vF, log8(_mm256_load_ps(scale[r])));
        }
        _mm256_store_ps(d0, v0);
        _mm256_store_ps(d1, v1);
        _mm256_store_ps(F, vF);
        for (int l = 0; l < W; ++l)
            if (live[l]) at[l] += k, left[l] -= k;
        for (int l = 0; l < W; ++l)
            if (live[l] && left[l] == 0) {
                out[who[l]] = F[l] + bias_step::end(d0[l], d1[l]);
                start(l);
            }
    }
}

}  // namespace warpdp::bias_lanes

#include "core/base/avx2_region_end.hpp"
#endif  // __x86_64__
