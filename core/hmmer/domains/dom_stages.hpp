// The post-filter pipeline of one target cut into stages that run over
// batches (docs/hmmer-filters.md §16.4): (A) the whole-target parsers, (B)
// host planning (decoding, regions, trace ensembles) into envelope jobs,
// (C) the envelopes, (D) host finish (displays, null2, scores). A and C
// are the float-heavy ones a DomBatchKernels runs (dom_batch.hpp); B and D
// stay here. The stages together give what hmmsearch's serial pipeline
// gives, to the bit, outcome included.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/base/easel_random.hpp"
#include "core/hmmer/domains/dom_decoding.hpp"
#include "core/hmmer/domains/dom_ensemble.hpp"
#include "core/hmmer/domains/dom_hit.hpp"
#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_target.hpp"
#include "core/hmmer/domains/dom_trace.hpp"

namespace warpdp {

// Stage A, one target: the parser Forward and Backward over the whole
// target (multihit, its length model). The caller gives the rows; the
// kernels fill them in DomMatrix's layout of specials.
struct DomParserOut {
    float fwdsc = 0;  // nats; NaN: Forward range error, nothing else is read
    float bcksc = 0;  // nats; NaN: Backward range error, the rows are not read
    bool bck_own_scales = false;     // the Backward matrix's has_own_scales
    std::span<float> fwd_rows, bck_rows;  // (L + 1) * kDomSpecials floats each
};

// Stage C's unit: one envelope of one target of the batch.
struct DomEnvelopeJob {
    uint32_t target = 0;    // index into the batch's targets
    int64_t i = 0, j = 0;   // residues, 1-based inclusive
    bool null2 = false;     // wants null2 by expectation (no traces set it)
};

enum class DomEnvelopeStatus { ok, forward_range_error, backward_range_error, decoding_overflow };

// Stage C's result for one job: its unihit Forward, Backward, posterior
// decoding, optimal-accuracy fill and trace, and null2 where wanted.
struct DomEnvelopeOut {
    DomEnvelopeStatus status = DomEnvelopeStatus::ok;
    float envsc = 0;          // Forward score, nats (set unless Forward failed)
    float oasc = 0;           // with ok
    DomTrace trace;           // with ok: the OA trace, residues in target coordinates
    std::vector<float> null2; // with ok and job.null2: Kp odds ratios by code
};

// A region as stage D replays it: a single-domain region is one job; a
// multidomain one has the jobs of its kept clusters, or a refused region
// Forward, where the plan ends.
struct DomPlanRegion {
    bool multidomain = false;
    bool forward_error = false;
    uint32_t njobs = 0;
};

// Stage B's result for one target.
struct DomPlan {
    DomOutcome outcome = DomOutcome::hit;  // else the parsers' or decoding's error; nothing else set
    float fwdsc = 0;
    float nexpected = 0;
    std::vector<DomPlanRegion> regions;
    std::vector<DomEnvelopeJob> jobs;  // in the serial order
    std::vector<float> n2sc;           // 0..L: log null2 of the clustered regions, 0 elsewhere
};

// One thread's scratch for stage B.
struct DomPlanWorkspace {
    explicit DomPlanWorkspace(uint32_t seed) : rng(EaselRandom::Kind::fast, seed) {}
    DomMatrix fwd;
    DomOccupancy occupancy;
    DomEnsemble ensemble;
    EaselRandom rng;
    std::vector<float> null2, null2_scratch;  // null2 by trace of one sampled domain
};

// One thread's scratch for stage A or C on the CPU.
struct DomKernelWorkspace {
    DomMatrix fwd, bck, oa;
};

// Stage A for one target with CPU kernels (out's rows given, sized).
void dom_run_parsers(const DomKernels& k, const DomModel& model, const DomTarget& target, DomKernelWorkspace& ws,
                     DomParserOut& out);

// Stage B: the outcome of the parsers and the decoding, the regions, and
// for multidomain ones the region Forward (with `k.forward`), the seeded
// trace ensemble, its null2 and clusters. Jobs name `index` as target.
void dom_plan_target(const DomKernels& k, const DomModel& model, const DomTarget& target,
                     const DomSettings& settings, const DomParserOut& parsers, uint32_t index, DomPlanWorkspace& ws,
                     DomPlan& plan);

// Stage C for one job with CPU kernels.
void dom_run_envelope(const DomKernels& k, const DomModel& model, const DomTarget& target,
                      const DomEnvelopeJob& job, DomKernelWorkspace& ws, DomEnvelopeOut& out);

// Stage D: replays the regions in order over the jobs' results (`envs`,
// plan.jobs' order), with the counts, the first error met, the displays,
// null2 and the scores; `plan.n2sc` is completed in place.
DomOutcome dom_finish_target(const DomModel& model, const DomTarget& target, const DomSettings& settings,
                             DomPlan& plan, std::span<const DomEnvelopeOut> envs, DomHit& hit);

}  // namespace warpdp
