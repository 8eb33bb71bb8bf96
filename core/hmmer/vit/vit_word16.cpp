// Conditions, words and emulation of the wrapping 16-bit Viterbi filter
// (the argument is in vit_word16.hpp).
#include "core/hmmer/vit/vit_word16.hpp"

#include <algorithm>
#include <vector>

namespace warpdp {
namespace {

// What the bounds need from a model: the extreme words in use.
struct WordRange {
    int t_min = 0;    // every transition a real value is added to
    int tbm_min = 0;  // B->M, nodes 1..M
    int tmi_min = 0;  // M->I, nodes 1..M-1
    int tmd_min = 0;  // M->D, nodes 1..M-1
    int e_min = 0, e_max = 0;  // emissions of codes outside bad_codes
    uint32_t bad_codes = 0;
};

WordRange word_range(const VitWordProfile& p) {
    WordRange r;
    r.tbm_min = 32767;
    r.e_min = 32767;
    r.e_max = -32768;
    for (int x = 0; x < p.Kp && x < 32; ++x)
        for (int k = 1; k <= p.M; ++k)
            if (p.e(x, k) == kWordNegInf) r.bad_codes |= uint32_t{1} << x;
    for (int k = 1; k <= p.M; ++k) {
        r.tbm_min = std::min<int>(r.tbm_min, p.t(k, kVBM));
        if (k > 1)
            for (VitTrans s : {kVMM, kVIM, kVDM}) r.t_min = std::min<int>(r.t_min, p.t(k, s));
        if (k < p.M) {
            for (VitTrans s : {kVMD, kVMI, kVII, kVDD}) r.t_min = std::min<int>(r.t_min, p.t(k, s));
            r.tmi_min = std::min<int>(r.tmi_min, p.t(k, kVMI));
            r.tmd_min = std::min<int>(r.tmd_min, p.t(k, kVMD));
        }
        for (int x = 0; x < p.Kp; ++x) {
            if (x < 32 && (r.bad_codes >> x & 1u)) continue;
            r.e_min = std::min<int>(r.e_min, p.e(x, k));
            r.e_max = std::max<int>(r.e_max, p.e(x, k));
        }
    }
    return r;
}

// The plan for targets of length L (max_len left 0).
Vit16Plan plan_at(const WordRange& r, uint64_t L) {
    Vit16Plan pl;
    pl.bad_codes = r.bad_codes;
    pl.K = std::max(0, r.e_max - 1);
    pl.F = -32768 - r.t_min;
    const int xb = kVitBase + vit_ncj_move(L) - pl.K;  // lowest xB, kernel units
    const int q = xb + r.tbm_min;                      // lowest match cell before its emission
    const int m_lo = q + r.e_min;
    pl.tbm_pad = -32768 - std::min(0, xb);  // xB + tbm_pad cannot wrap
    pl.ok = q >= pl.F && m_lo >= pl.F && m_lo + r.tmi_min >= pl.F && m_lo + r.tmd_min >= pl.F &&
            pl.tbm_pad <= r.tbm_min + r.e_min;  // a padding cell never beats a real one
    return pl;
}

}  // namespace

Vit16Plan vit16_plan(const VitWordProfile& p) {
    const WordRange r = word_range(p);
    // NCJmove(L) only falls with L, and every condition only gets harder.
    // A profile of more than 32 codes has no alphabet of HMMER's: keep it off this path.
    if (p.M < 1 || p.Kp > 32 || !plan_at(r, 1).ok) return Vit16Plan{};
    uint64_t lo = 1, hi = uint64_t{1} << 40;
    if (plan_at(r, hi).ok) {
        lo = hi;
    } else {
        while (hi - lo > 1) {
            const uint64_t mid = lo + (hi - lo) / 2;
            (plan_at(r, mid).ok ? lo : hi) = mid;
        }
    }
    Vit16Plan pl = plan_at(r, lo);
    pl.max_len = lo;
    return pl;
}

int16_t vit16_trans(const VitWordProfile& p, const Vit16Plan& plan, int k, VitTrans slot) {
    if (k > p.M) return static_cast<int16_t>(slot == kVBM ? plan.tbm_pad : 0);
    const bool from_node0 = slot == kVMM || slot == kVIM || slot == kVDM;
    if (k == 1 && from_node0) return 0;
    if (k == p.M && !from_node0 && slot != kVBM) return 0;
    return p.t(k, slot);
}

int16_t vit16_emit(const VitWordProfile& p, int x, int k) { return k > p.M ? int16_t{0} : p.e(x, k); }

uint32_t vit16_emulate(const VitWordProfile& p, const Vit16Plan& plan, std::span<const uint8_t> dsq, int npad,
                       uint64_t* wraps) {
    if (dsq.empty()) return kVitNoPath;
    const int Mp = p.M + npad, F = plan.F, K = plan.K;
    auto add = [&](int a, int b) {
        int s = a + b;
        if (s < -32768 || s > 32767) {
            ++*wraps;
            s = static_cast<int16_t>(static_cast<uint16_t>(s & 0xFFFF));
        }
        return s;
    };
    auto t = [&](int k, VitTrans s) -> int { return vit16_trans(p, plan, k, s); };
    const auto n = static_cast<size_t>(Mp) + 1;
    std::vector<int> Mv(n, F), Iv(n, F), Dv(n, F), Mc(n, F), Ic(n, F), Dc(n, F);
    const int ncj = vit_ncj_move(dsq.size());
    int xB = kVitBase + ncj - K;
    int R = -32768;  // running maximum of all match cells
    for (uint8_t x : dsq) {
        for (int k = 1; k <= Mp; ++k) {
            const auto ks = static_cast<size_t>(k);
            int v = add(xB, t(k, kVBM));
            v = std::max(v, add(Mv[ks - 1], t(k, kVMM)));
            v = std::max(v, add(Iv[ks - 1], t(k, kVIM)));
            v = std::max(v, add(Dv[ks - 1], t(k, kVDM)));
            Mc[ks] = std::max(add(v, vit16_emit(p, x, k)), F);
            Ic[ks] = std::max(add(Iv[ks], t(k, kVII)), std::max(add(Mv[ks], t(k, kVMI)), F));
        }
        Dc[1] = F;
        for (int k = 2; k <= Mp; ++k) {
            const auto ks = static_cast<size_t>(k);
            Dc[ks] = std::max(add(Dc[ks - 1], t(k - 1, kVDD)), add(Mc[ks - 1], t(k - 1, kVMD)));
        }
        for (int k = 1; k <= Mp; ++k) R = std::max(R, Mc[static_cast<size_t>(k)]);
        if (R + K >= 32767) return kVitOverflow;  // HMMER stops here too
        xB = std::max(R + K - 500, kVitBase) + ncj - K;
        std::swap(Mv, Mc);
        std::swap(Iv, Ic);
        std::swap(Dv, Dc);
    }
    const int xC = std::max(-32768, R + K - 500);
    if (xC <= -32768) return kVitNoPath;
    return static_cast<uint32_t>(xC + 32768);
}

}  // namespace warpdp
