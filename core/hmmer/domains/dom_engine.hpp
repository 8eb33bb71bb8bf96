// One interface for the forms of the post-filter stages (docs/hmmer-filters.md
// §16.4): the scalar reference, the CPU engine (vector kernels, threads) and,
// later, a CUDA engine. A call takes one model's Forward passers; results
// come back by index, so they never depend on the form, the batch size or
// the thread count.
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

class DomEngine {
public:
    virtual ~DomEngine() = default;
    virtual std::string name() const = 0;
    virtual DomStageSeconds stage_seconds() const { return {}; }
    // out[j] for targets[j], each of length >= 1. One call at a time on an
    // engine: it keeps its threads' workspaces from call to call.
    virtual void search(const DomModel& model, std::span<const DomTarget> targets, const DomSettings& settings,
                        std::span<DomResult> out) = 0;
};

// The residues of one batch of targets (a longer target makes a batch of its
// own): what the stages hold between them grows with it, some 50 to 100
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
