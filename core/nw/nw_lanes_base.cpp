// Lane kernels for the x86-64 baseline (SSE2) or any other target.
#include "core/nw/nw_lanes.hpp"
#include "core/nw/nw_lanes_dispatch.hpp"

namespace warpdp::nw_lanes {

void ndist_base(const Group& g, Scratch& s, double* out) { ndist<kNdistLanes>(g, s, out); }
void seqdist_base(const Group& g, const SeqDistTable& t, Scratch& s, double* out) {
    seqdist<kSeqdistLanes>(g, t, s, out);
}

}  // namespace warpdp::nw_lanes
