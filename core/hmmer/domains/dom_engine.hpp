// One interface for the forms of the post-filter stages (docs/hmmer-filters.md
// §16.4): the scalar reference, the CPU engine (vector kernels, threads) and
// a CUDA engine. A call takes one model's Forward passers, or several
// models'; results come back by index, so they never depend on the form,
// the batch size, the models searched together or the thread count.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/hmmer/domains/dom_batch.hpp"
#include "core/hmmer/domains/dom_target.hpp"

namespace warpdp {

struct DomResult {
    DomOutcome outcome = DomOutcome::no_domain;
    DomHit hit;  // with DomOutcome::hit
};

// Wall seconds in each stage since the engine was made (gpu-hmmsearch's
// WARPDP_TIMES); alignment: the part of envelopes spent in the
// optimal-accuracy stage, where the kernels time it apart (else 0).
struct DomStageSeconds {
    double parsers = 0, planning = 0, envelopes = 0, finish = 0, alignment = 0;
};

// One model's part of a search of several models' targets at once.
struct DomSearchCall {
    DomModel model;
    std::span<const DomTarget> targets;  // each of length >= 1
    std::span<DomResult> out;            // out[j] for targets[j]
};

class DomEngine {
public:
    virtual ~DomEngine() = default;
    virtual std::string name() const = 0;
    virtual DomStageSeconds stage_seconds() const { return {}; }
    // Every call's targets, their batches' float stages shared by the
    // models (a GPU is busy only with several models' jobs at once). One
    // search at a time on an engine: it keeps its threads' workspaces.
    virtual void search(std::span<const DomSearchCall> calls, const DomSettings& settings) = 0;
    // One model's targets: a search of one call.
    void search(const DomModel& model, std::span<const DomTarget> targets, const DomSettings& settings,
                std::span<DomResult> out) {
        const DomSearchCall call{model, targets, out};
        search(std::span<const DomSearchCall>(&call, 1), settings);
    }
};

// The residues of one batch of targets, of one model or several (a longer
// target makes a batch of its own): what the stages hold between them grows with it, some 50 to 100
// bytes a residue (the parsers' specials, null2, the traces).
constexpr uint64_t kDomBatchResidues = 1ull << 20;

// The staged pipeline: per batch, `batch`'s parsers, planning on `threads`
// threads (region Forwards with `host`), `batch`'s envelopes, then the
// finish on `threads` threads.
std::unique_ptr<DomEngine> make_dom_staged_engine(std::string name, DomKernels host,
                                                  std::unique_ptr<DomBatchKernels> batch, unsigned threads,
                                                  uint64_t batch_residues = kDomBatchResidues);
// The scalar kernels on one thread.
std::unique_ptr<DomEngine> make_dom_reference_engine();
// The vector kernels on `threads` threads.
std::unique_ptr<DomEngine> make_dom_cpu_engine(unsigned threads);

}  // namespace warpdp
