// Lane kernels built with -mavx2 (CMakeLists.txt); entered only after a
// run-time CPU check in nw_lanes_dispatch.
#include "core/nw/nw_lanes.hpp"
#include "core/nw/nw_lanes_dispatch.hpp"

namespace warpdp::nw_lanes {

#if defined(__AVX2__)
void ndist_avx2(const Group& g, Scratch& s, double* out) { ndist<kNdistLanes>(g, s, out); }
void seqdist_avx2(const Group& g, const SeqDistTable& t, Scratch& s, double* out) {
    seqdist<kSeqdistLanes>(g, t, s, out);
}
bool avx2_built() noexcept { return true; }
#else
void ndist_avx2(const Group& g, Scratch& s, double* out) { ndist_base(g, s, out); }
void seqdist_avx2(const Group& g, const SeqDistTable& t, Scratch& s, double* out) { seqdist_base(g, t, s, out); }
bool avx2_built() noexcept { return false; }
#endif

}  // namespace warpdp::nw_lanes
