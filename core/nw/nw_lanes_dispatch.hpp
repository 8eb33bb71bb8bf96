// Which build of the lane kernels (nw_lanes.hpp) runs on this CPU.
#pragma once

#include "core/nw/nw_lanes.hpp"

namespace warpdp::nw_lanes {

void ndist_base(const Group& g, Scratch& s, double* out);
void seqdist_base(const Group& g, const SeqDistTable& t, Scratch& s, double* out);
void ndist_avx2(const Group& g, Scratch& s, double* out);
void seqdist_avx2(const Group& g, const SeqDistTable& t, Scratch& s, double* out);
bool avx2_built() noexcept;

struct Kernels {
    void (*ndist)(const Group&, Scratch&, double*);
    void (*seqdist)(const Group&, const SeqDistTable&, Scratch&, double*);
    const char* isa;
};

// avx2 when built and the CPU has it, else the baseline; `force_base` for tests.
Kernels kernels(bool force_base = false);

}  // namespace warpdp::nw_lanes
