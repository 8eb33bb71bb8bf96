// The float-heavy stages of the post-filter pipeline over a batch of one
// model's targets or several models' (docs/hmmer-filters.md §16.4): stage A, the whole-target
// parsers, and stage C, the envelopes. The engine (dom_engine.hpp) does the
// host stages between them; a form of these two calls (CPU threads here, a
// GPU elsewhere) must give the results of dom_run_parsers and
// dom_run_envelope on the scalar kernels, to the bit.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "core/hmmer/domains/dom_stages.hpp"

namespace warpdp {

// One model's part of a call that holds several models' items: a GPU is
// busy only with thousands of jobs at once, more than one model's
// survivors give (docs/hmmer-filters.md §16.10).
struct DomParsersCall {
    DomModel model;
    std::span<const DomTarget> targets;
    std::span<DomParserOut> out;  // out[t] for targets[t], its rows given and sized by the caller
};
struct DomEnvelopesCall {
    DomModel model;
    std::span<const DomTarget> targets;
    std::span<const DomEnvelopeJob> jobs;  // each job's `target` indexes this call's targets
    std::span<DomEnvelopeOut> out;         // out[z] for jobs[z]
};

class DomBatchKernels {
public:
    virtual ~DomBatchKernels() = default;
    virtual std::string name() const = 0;
    // Wall seconds of envelopes() spent on the optimal-accuracy stage, where
    // these kernels run it apart (else 0).
    virtual double alignment_seconds() const { return 0; }
    // Stage A, every call's targets.
    virtual void parsers(std::span<const DomParsersCall> calls) = 0;
    // Stage C, every call's jobs.
    virtual void envelopes(std::span<const DomEnvelopesCall> calls) = 0;
};

// One model's stage A or C: a call of one.
void dom_parsers(DomBatchKernels& k, const DomModel& model, std::span<const DomTarget> targets,
                 std::span<DomParserOut> out);
void dom_envelopes(DomBatchKernels& k, const DomModel& model, std::span<const DomTarget> targets,
                   std::span<const DomEnvelopeJob> jobs, std::span<DomEnvelopeOut> out);

// Both stages on the CPU with kernels `k` (dom_reference_kernels() or
// dom_vector_kernels()), one target or job per thread at a time. One call at
// a time: the threads' workspaces are kept from call to call.
std::unique_ptr<DomBatchKernels> make_dom_cpu_batch_kernels(std::string name, DomKernels k, unsigned threads);

}  // namespace warpdp
