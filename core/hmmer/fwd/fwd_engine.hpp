// One interface for the forms of the Forward filter (scalar reference,
// optimized CPU engine, CUDA engine). The Forward stage sees only the
// Viterbi-stage survivors (well under 1 % of a database), so each job gets
// the few targets to score as a batch of their own; a chunk's jobs of all
// models go in one call, so an engine can run them side by side (a GPU
// needs thousands of targets at once to be busy).
#pragma once

#include <memory>
#include <span>
#include <string>

#include "core/hmmer/fwd/fwd_profile.hpp"
#include "core/io/seq_batch.hpp"

namespace warpdp {

// Score every target of `targets` (each of length >= 1) against `profile`
// into out[j]: the Forward score in nats, NaN where HMMER's parser raises an
// error. The pointed-to data must outlive the call.
struct FwdJob {
    const FwdProfile* profile = nullptr;
    const SeqBatch* targets = nullptr;
    std::span<float> out;
};

class FwdEngine {
public:
    virtual ~FwdEngine() = default;
    virtual std::string name() const = 0;
    virtual void score_many(std::span<const FwdJob> jobs) = 0;
    void score(const FwdProfile& profile, const SeqBatch& targets, std::span<float> out) {
        const FwdJob job{&profile, &targets, out};
        score_many({&job, 1});
    }
};

std::unique_ptr<FwdEngine> make_fwd_reference_engine();

}  // namespace warpdp
