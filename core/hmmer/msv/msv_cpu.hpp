// The optimized CPU MSV engine's public pieces: the striped (Farrar) byte
// profile, per-thread scratch, the table of instruction-set variants
// (core/base/simd_variants.hpp), so tests and benchmarks can force every
// variant rather than only the one the engine picks, and the engine's
// factories. Every variant returns exactly msv_reference().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "core/base/simd_variants.hpp"
#include "core/hmmer/msv/msv_engine.hpp"
#include "core/hmmer/msv/msv_profile.hpp"

namespace warpdp {

// A 64-byte aligned byte buffer, so vector loads never split cache lines.
class AlignedBytes {
public:
    AlignedBytes() = default;
    explicit AlignedBytes(size_t n);
    void resize_discard(size_t n);  // grows only; contents undefined afterwards
    uint8_t* data() noexcept { return p_.get(); }
    const uint8_t* data() const noexcept { return p_.get(); }
    size_t size() const noexcept { return n_; }

private:
    struct Free { void operator()(uint8_t* p) const noexcept; };
    std::unique_ptr<uint8_t, Free> p_;
    size_t n_ = 0;
};

// The byte profile rearranged for one vector width W: node k = j*Q + q + 1
// sits in vector q, lane j, with Q = ceil(M / W); lanes past M cost 255
// (-inf), which keeps them at the floor so they never reach a real node.
// Two tables per residue code, each [Kp][Q][W]:
//   cost  : the unsigned cost, for full MSV and the unsigned SSV form;
//   score : clamp(bias - cost, -128, 127) as int8, for the signed SSV form.
struct MsvStripedProfile {
    MsvStripedProfile(const MsvByteProfile& p, int width);

    int M = 0, Kp = 0, W = 0, Q = 0;
    uint8_t bias = 0, tbm = 0, tec = 0;
    AlignedBytes cost;
    AlignedBytes score;

    const uint8_t* cost_row(int x) const noexcept { return cost.data() + static_cast<size_t>(x) * Q * W; }
    const int8_t* score_row(int x) const noexcept {
        return reinterpret_cast<const int8_t*>(score.data()) + static_cast<size_t>(x) * Q * W;
    }
};

// One DP row of scratch for a thread, reused across targets and models.
class MsvCpuScratch {
public:
    uint8_t* row(const MsvStripedProfile& sp) {
        buf_.resize_discard(static_cast<size_t>(sp.Q) * static_cast<size_t>(sp.W));
        return buf_.data();
    }

private:
    AlignedBytes buf_;
};

// Which half of the filter to run; `both` is the filter itself.
enum class MsvPass {
    ssv,   // SSV fast path only: kSsvNoResult where HMMER would run full MSV
    full,  // the full MSV recurrence with J only
    both,  // SSV, then full MSV on its fallback (= msv_reference)
};

// One entry of the table: the vector width its striped profile must have
// and its scorer, which runs SSV and falls back to full MSV exactly where
// msv_reference() does (or only one half, per `pass`). Every scoring call
// expects residue codes below the profile's Kp (as digitised by Alphabet),
// like msv_reference; they are not re-checked per residue in the hot loop.
struct MsvCpuKernels {
    int width;  // bytes per vector: 32 (avx2), 16 (sse2); 1: the serial reference, no striping
    uint16_t (*score)(const MsvByteProfile& p, const MsvStripedProfile& sp, std::span<const uint8_t> dsq,
                      MsvCpuScratch& scratch, MsvPass pass);
};
using MsvCpuVariant = SimdVariant<MsvCpuKernels>;

// Best first: msv_striped_avx2_u8, msv_striped_sse2_u8 (x86-64 only) and
// msv_serial_base_u8 (the reference, which ignores the striped profile).
std::span<const MsvCpuVariant> msv_cpu_variants();

// Runs variant `v`; `sp` must be built for v's width and this CPU must run
// v: both are checked and a mismatch throws std::invalid_argument.
uint16_t msv_cpu_score_one(const MsvCpuVariant& v, const MsvByteProfile& p, const MsvStripedProfile& sp,
                           std::span<const uint8_t> dsq, MsvCpuScratch& scratch, MsvPass pass = MsvPass::both);

// The threaded engine; threads = 0: all cores. It runs
// choose_variant<msv_cpu_variants>(), or `v` when given (tests, benchmarks;
// one this CPU lacks throws std::invalid_argument). score() runs its own
// worker threads and returns when all are done; one engine serves one
// score() call at a time (its per-thread scratch is reused).
std::unique_ptr<MsvEngine> make_msv_cpu_engine(unsigned threads);
std::unique_ptr<MsvEngine> make_msv_cpu_engine(unsigned threads, const MsvCpuVariant& v);

}  // namespace warpdp
