// Float MSV recurrence. Kept deliberately plain (max/add over a row) so it
// is easy to read against the path definition in msv_float.hpp.
#include "core/hmmer/msv/msv_float.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/hmmer/msv/msv_profile.hpp"
#include "core/hmmer/profile.hpp"

namespace warpdp {

MsvFloatModel msv_float_model(const Profile& prof) {
    MsvFloatModel m;
    m.M = prof.M;
    m.Kp = prof.Kp;
    const float M = static_cast<float>(prof.M);
    m.tbm = std::log(2.0f / (M * static_cast<float>(prof.M + 1)));
    m.tec = std::log(0.5f);
    m.s = prof.msc;
    return m;
}

MsvFloatModel msv_float_model(const MsvByteProfile& bp) {
    const float ninf = -std::numeric_limits<float>::infinity();
    MsvFloatModel m;
    m.M = bp.M;
    m.Kp = bp.Kp;
    m.tbm = -static_cast<float>(bp.tbm);
    m.tec = -static_cast<float>(bp.tec);
    m.s.assign((static_cast<size_t>(bp.M) + 1) * static_cast<size_t>(bp.Kp), ninf);
    for (int k = 1; k <= bp.M; ++k)
        for (int x = 0; x < bp.Kp; ++x) {
            const int c = bp.cost_at(x, k);
            m.s[static_cast<size_t>(k) * static_cast<size_t>(bp.Kp) + static_cast<size_t>(x)] =
                c == 255 ? ninf : static_cast<float>(bp.bias - c);
        }
    return m;
}

MsvFloatResult msv_float(const MsvFloatModel& m, std::span<const uint8_t> dsq, float tjb) {
    const float ninf = -std::numeric_limits<float>::infinity();
    const size_t M = static_cast<size_t>(m.M);
    std::vector<float> prev(M + 1, ninf), cur(M + 1, ninf);
    MsvFloatResult r{ninf, ninf};
    float xJ = ninf;       // J and C: best score after >= 1 hit
    float xB = 0.0f + tjb;  // from N (score 0) before any residue
    for (uint8_t x : dsq) {
        float xE = ninf;
        for (size_t k = 1; k <= M; ++k) {
            const float v = std::max(prev[k - 1], xB + m.tbm) + m.score(static_cast<int>(k), x);
            cur[k] = v;
            xE = std::max(xE, v);
        }
        r.xe = std::max(r.xe, xE);
        xJ = std::max(xJ, xE + m.tec);
        xB = std::max(0.0f, xJ) + tjb;
        std::swap(prev, cur);
    }
    r.xc = xJ;
    return r;
}

float msv_float_nats(const MsvFloatModel& m, std::span<const uint8_t> dsq) {
    const float tjb = std::log(3.0f / static_cast<float>(dsq.size() + 3));
    return msv_float(m, dsq, tjb).xc + tjb - 3.0f;
}

}  // namespace warpdp
