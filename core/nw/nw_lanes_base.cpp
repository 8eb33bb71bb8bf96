// Lane kernels for the build's baseline target (SSE2 on x86-64, or any
// other): the NW variant every CPU runs.
#include "core/nw/nw_lanes_kernels.hpp"

#include "core/nw/nw_lanes_kernel_impl.hpp"

namespace warpdp::nw_lanes {

void ndist_base(const Group& g, Scratch& s, double* out) { ndist<kNdistLanes>(g, s, out); }
void seqdist_base(const Group& g, const SeqDistTable& t, Scratch& s, double* out) {
    seqdist<kSeqdistLanes>(g, t, s, out);
}

}  // namespace warpdp::nw_lanes
