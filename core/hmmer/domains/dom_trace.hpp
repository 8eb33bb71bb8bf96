// A state path through the profile (HMMER's P7_TRACE, docs/hmmer-filters.md
// §16.3): produced by the stochastic traceback and the optimal-accuracy
// traceback, read by null2-by-trace, the ensemble clustering and the
// alignment display.
#pragma once

#include <cstdint>
#include <vector>

namespace warpdp {

// State codes in HMMER's order (p7T_*), so a trace reads as HMMER's does.
enum DomState : char { kStBogus = 0, kStM, kStD, kStI, kStS, kStN, kStB, kStE, kStC, kStT, kStJ, kStX };

struct DomTraceStep {
    DomState st = kStBogus;
    int k = 0;          // node 1..M for M, D, I; else 0
    int64_t i = 0;      // residue emitted, 1..L; else 0
    float pp = 0.0f;    // posterior probability of the emitted residue; else 0
};

struct DomTraceDomain {
    int tfrom = 0, tto = 0;          // steps of its B and E
    int64_t sqfrom = 0, sqto = 0;    // first and last residue emitted by M
    int hmmfrom = 0, hmmto = 0;      // first and last M node
};

struct DomTrace {
    int M = 0;
    int64_t L = 0;
    std::vector<DomTraceStep> steps;     // S ... T
    std::vector<DomTraceDomain> domains; // filled by dom_trace_index

    void clear() { steps.clear(); domains.clear(); }
};

// Appends a step to a trace grown in either direction (p7_trace_Append /
// AppendWithPP): N, C and J record i only when they repeat the state before
// them, D records k only, non-emitters neither; pp is kept for emitters only.
void dom_trace_append(DomTrace& tr, DomState st, int k, int64_t i, float pp = 0.0f);

// Reverses a trace grown from T back to S (p7_trace_Reverse), first moving
// each N/C/J run's unused first step to its other end, so that the first
// step of every run emits nothing once reversed.
void dom_trace_reverse(DomTrace& tr);

// Finds the domains of a trace (HMMER's p7_trace_Index): one per B..E,
// with the residues and nodes of its first and last M.
void dom_trace_index(DomTrace& tr);

}  // namespace warpdp
