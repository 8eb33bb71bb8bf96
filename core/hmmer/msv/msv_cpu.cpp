// The CPU engine's per-model and per-target layer: aligned buffers, the
// striped byte profile, and the table of variants, whose scorers run SSV and
// fall back to full MSV exactly where msv_reference() does.
#include "core/hmmer/msv/msv_cpu.hpp"

#include <algorithm>
#include <new>
#include <stdexcept>
#include <string>

#include "core/hmmer/msv/msv_reference.hpp"
#include "core/hmmer/msv/msv_striped_kernels.hpp"

namespace warpdp {

static_assert(kMsvOverflow == 0xFFFF && kSsvNoResult == 0xFFFE && kMsvBase == 190,
              "msv_striped_kernel_impl.hpp mirrors these constants");

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

using Kernel = uint16_t (*)(const msv_striped::StripedView&, const uint8_t*, size_t, int, uint8_t*);

uint16_t run_pass(Kernel ssv, Kernel full, const MsvStripedProfile& sp, std::span<const uint8_t> dsq,
                  MsvCpuScratch& scratch, MsvPass pass) {
    const msv_striped::StripedView v{sp.cost.data(), reinterpret_cast<const int8_t*>(sp.score.data()), sp.Q,
                              sp.bias, sp.tbm, sp.tec};
    const int tjb = msv_tjb(dsq.size());
    uint8_t* row = scratch.row(sp);
    if (pass != MsvPass::full) {
        const uint16_t r = ssv(v, dsq.data(), dsq.size(), tjb, row);
        if (pass == MsvPass::ssv || r != kSsvNoResult) return r;
    }
    return full(v, dsq.data(), dsq.size(), tjb, row);
}

#if defined(__x86_64__)
uint16_t score_avx2(const MsvByteProfile&, const MsvStripedProfile& sp, std::span<const uint8_t> dsq,
                    MsvCpuScratch& scratch, MsvPass pass) {
    return run_pass(msv_striped::ssv_avx2, msv_striped::full_avx2, sp, dsq, scratch, pass);
}
uint16_t score_sse2(const MsvByteProfile&, const MsvStripedProfile& sp, std::span<const uint8_t> dsq,
                    MsvCpuScratch& scratch, MsvPass pass) {
    return run_pass(msv_striped::ssv_sse2, msv_striped::full_sse2, sp, dsq, scratch, pass);
}
#endif

uint16_t score_serial(const MsvByteProfile& p, const MsvStripedProfile&, std::span<const uint8_t> dsq,
                      MsvCpuScratch&, MsvPass pass) {
    switch (pass) {
        case MsvPass::ssv: return ssv_reference(p, dsq);
        case MsvPass::full: return msv_full_reference(p, dsq);
        case MsvPass::both: break;
    }
    return msv_reference(p, dsq);
}

constexpr MsvCpuVariant kVariants[] = {
#if defined(__x86_64__)
    {"msv_striped_avx2_u8", CpuIsa::avx2, {32, score_avx2}},
    {"msv_striped_sse2_u8", CpuIsa::sse2, {16, score_sse2}},
#endif
    {"msv_serial_base_u8", CpuIsa::base, {1, score_serial}},
};

}  // namespace

std::span<const MsvCpuVariant> msv_cpu_variants() { return kVariants; }

uint16_t msv_cpu_score_one(const MsvCpuVariant& v, const MsvByteProfile& p, const MsvStripedProfile& sp,
                           std::span<const uint8_t> dsq, MsvCpuScratch& scratch, MsvPass pass) {
    require_supported(v);
    if (sp.W != v.kernels.width)
        throw std::invalid_argument(std::string("MSV variant ") + v.name + " needs width " +
                                    std::to_string(v.kernels.width) + ", profile has " + std::to_string(sp.W));
    return v.kernels.score(p, sp, dsq, scratch, pass);
}

}  // namespace warpdp
