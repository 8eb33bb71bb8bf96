// The CPU engine's per-model and per-target layer: aligned buffers, the
// striped byte profile, ISA detection, and the named per-variant entry points
// that run SSV and fall back to full MSV exactly where msv_reference() does.
#include "core/hmmer/msv/msv_cpu.hpp"

#include <algorithm>
#include <new>
#include <stdexcept>
#include <string>

#include "core/hmmer/msv/msv_cpu_kernels.hpp"
#include "core/hmmer/msv/msv_reference.hpp"

namespace warpdp {

static_assert(kMsvOverflow == 0xFFFF && kSsvNoResult == 0xFFFE && kMsvBase == 190,
              "msv_cpu_kernel_impl.hpp mirrors these constants");

namespace {
constexpr std::align_val_t kAlign{64};
}

void AlignedBytes::Free::operator()(uint8_t* p) const noexcept { ::operator delete[](p, kAlign); }

AlignedBytes::AlignedBytes(size_t n) { resize_discard(n); }

void AlignedBytes::resize_discard(size_t n) {
    if (n <= n_ && p_) return;
    p_.reset(static_cast<uint8_t*>(::operator new[](std::max<size_t>(n, 1), kAlign)));
    n_ = n;
}

const char* msv_isa_name(MsvIsa isa) noexcept {
    switch (isa) {
        case MsvIsa::scalar: return "scalar";
        case MsvIsa::sse2: return "sse2";
        case MsvIsa::avx2: return "avx2";
    }
    return "?";
}

bool msv_isa_available(MsvIsa isa) noexcept {
    switch (isa) {
        case MsvIsa::scalar: return true;
        case MsvIsa::sse2: return msvk::sse2_built();
        case MsvIsa::avx2:
#if defined(__x86_64__)
            return msvk::avx2_built() && __builtin_cpu_supports("avx2");
#else
            return false;
#endif
    }
    return false;
}

MsvIsa msv_best_isa() noexcept {
    if (msv_isa_available(MsvIsa::avx2)) return MsvIsa::avx2;
    if (msv_isa_available(MsvIsa::sse2)) return MsvIsa::sse2;
    return MsvIsa::scalar;
}

int msv_isa_width(MsvIsa isa) noexcept {
    switch (isa) {
        case MsvIsa::scalar: return 1;
        case MsvIsa::sse2: return 16;
        case MsvIsa::avx2: return 32;
    }
    return 1;
}

MsvStripedProfile::MsvStripedProfile(const MsvByteProfile& p, int width)
    : M(p.M), Kp(p.Kp), W(width), Q(std::max(1, (p.M + width - 1) / width)), bias(p.bias), tbm(p.tbm), tec(p.tec) {
    if (width < 1 || M < 1 || p.cost.size() != static_cast<size_t>(Kp) * static_cast<size_t>(M + 1))
        throw std::invalid_argument("MsvStripedProfile: bad profile (M=" + std::to_string(M) +
                                    ", width=" + std::to_string(width) + ")");
    const size_t n = static_cast<size_t>(Kp) * Q * W;
    cost = AlignedBytes(n);
    score = AlignedBytes(n);
    for (int x = 0; x < Kp; ++x) {
        uint8_t* c = cost.data() + static_cast<size_t>(x) * Q * W;
        uint8_t* s = score.data() + static_cast<size_t>(x) * Q * W;
        for (int q = 0; q < Q; ++q) {
            for (int j = 0; j < W; ++j) {
                const int k = j * Q + q + 1;
                const int cv = k <= M ? p.cost_at(x, k) : 255;
                const int sv = std::clamp(static_cast<int>(bias) - cv, -128, 127);
                c[q * W + j] = static_cast<uint8_t>(cv);
                s[q * W + j] = static_cast<uint8_t>(static_cast<int8_t>(sv));
            }
        }
    }
}

namespace {

using Kernel = uint16_t (*)(const msvk::StripedView&, const uint8_t*, size_t, int, uint8_t*);

uint16_t run_pass(Kernel ssv, Kernel full, const MsvStripedProfile& sp, std::span<const uint8_t> dsq,
                  MsvCpuScratch& scratch, MsvPass pass) {
    const msvk::StripedView v{sp.cost.data(), reinterpret_cast<const int8_t*>(sp.score.data()), sp.Q,
                              sp.bias, sp.tbm, sp.tec};
    const int tjb = msv_tjb(dsq.size());
    uint8_t* row = scratch.row(sp);
    if (pass != MsvPass::full) {
        const uint16_t r = ssv(v, dsq.data(), dsq.size(), tjb, row);
        if (pass == MsvPass::ssv || r != kSsvNoResult) return r;
    }
    return full(v, dsq.data(), dsq.size(), tjb, row);
}

void require(MsvIsa isa, const MsvStripedProfile& sp) {
    if (!msv_isa_available(isa))
        throw std::invalid_argument(std::string("MSV variant ") + msv_isa_name(isa) + " is not available here");
    if (sp.W != msv_isa_width(isa))
        throw std::invalid_argument(std::string("MSV variant ") + msv_isa_name(isa) + " needs width " +
                                    std::to_string(msv_isa_width(isa)) + ", profile has " + std::to_string(sp.W));
}

}  // namespace

uint16_t msv_cpu_score_one_sse2(const MsvStripedProfile& sp, std::span<const uint8_t> dsq,
                                MsvCpuScratch& scratch, MsvPass pass) {
    require(MsvIsa::sse2, sp);
    return run_pass(msvk::ssv_sse2, msvk::full_sse2, sp, dsq, scratch, pass);
}

uint16_t msv_cpu_score_one_avx2(const MsvStripedProfile& sp, std::span<const uint8_t> dsq,
                                MsvCpuScratch& scratch, MsvPass pass) {
    require(MsvIsa::avx2, sp);
    return run_pass(msvk::ssv_avx2, msvk::full_avx2, sp, dsq, scratch, pass);
}

uint16_t msv_cpu_score_one(MsvIsa isa, const MsvByteProfile& p, const MsvStripedProfile& sp,
                           std::span<const uint8_t> dsq, MsvCpuScratch& scratch, MsvPass pass) {
    switch (isa) {
        case MsvIsa::sse2: return msv_cpu_score_one_sse2(sp, dsq, scratch, pass);
        case MsvIsa::avx2: return msv_cpu_score_one_avx2(sp, dsq, scratch, pass);
        case MsvIsa::scalar: break;
    }
    switch (pass) {
        case MsvPass::ssv: return ssv_reference(p, dsq);
        case MsvPass::full: return msv_full_reference(p, dsq);
        case MsvPass::both: break;
    }
    return msv_reference(p, dsq);
}

}  // namespace warpdp
