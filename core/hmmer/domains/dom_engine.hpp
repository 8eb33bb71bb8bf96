// One interface for the forms of the post-filter stages (docs/hmmer-filters.md
// §16.4): the scalar reference, the CPU engine (vector kernels, threads over
// targets) and, later, a CUDA engine. A call takes one model's Forward
// passers; results come back by index, so they never depend on the form or
// the thread count.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "core/hmmer/domains/dom_target.hpp"

namespace warpdp {

struct DomResult {
    DomOutcome outcome = DomOutcome::no_domain;
    DomHit hit;  // with DomOutcome::hit
};

class DomEngine {
public:
    virtual ~DomEngine() = default;
    virtual std::string name() const = 0;
    // out[j] for targets[j], each of length >= 1. One call at a time on an
    // engine: it keeps its threads' workspaces from call to call.
    virtual void search(const DomModel& model, std::span<const DomTarget> targets, const DomSettings& settings,
                        std::span<DomResult> out) = 0;
};

std::unique_ptr<DomEngine> make_dom_reference_engine();
std::unique_ptr<DomEngine> make_dom_cpu_engine(unsigned threads);

}  // namespace warpdp
