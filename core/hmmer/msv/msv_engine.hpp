// One interface for the three forms of the MSV filter (scalar reference,
// optimized CPU engine, CUDA engine). A chunk of targets is loaded once and
// stays resident (on the GPU, or pinned on the host) while models stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/hmmer/msv/msv_profile.hpp"
#include "core/io/seq_batch.hpp"

namespace warpdp {

class MsvEngine {
public:
    virtual ~MsvEngine() = default;
    virtual std::string name() const = 0;
    // Makes `targets` the resident chunk. The batch must outlive the scoring calls.
    virtual void load_targets(const SeqBatch& targets) = 0;
    // Chunks of about `residues` residues will follow: an engine may allocate
    // for them now, off the critical path (tools call it while the reader
    // parses the first chunk). A hint: it changes no result.
    virtual void expect_chunk_residues(uint64_t residues) { static_cast<void>(residues); }
    // out[t] = raw MSV result (xJ or kMsvOverflow) of `profile` against target t
    // of the resident chunk; out.size() == number of targets.
    virtual void score(const MsvByteProfile& profile, std::span<uint16_t> out) = 0;

    // The resident chunk's number of targets.
    virtual size_t resident_targets() const = 0;

    // Scores the resident chunk against each profile in turn and calls
    // done(i, raw) with profile i's results (as score() gives them) in
    // order, on the calling thread; `raw` is valid until done returns. An
    // engine may go on with later profiles while done runs (the CUDA engine
    // keeps a few queued, so the card does not wait for the host's
    // decisions); this one scores them one after another.
    using ScoredFn = std::function<void(size_t, std::span<const uint16_t>)>;
    virtual void score_each(std::span<const MsvByteProfile* const> profiles, const ScoredFn& done) {
        std::vector<uint16_t> raw(resident_targets());
        for (size_t i = 0; i < profiles.size(); ++i) {
            score(*profiles[i], raw);
            done(i, raw);
        }
    }
};

// The scalar reference as an engine (used by tests and as a last resort).
std::unique_ptr<MsvEngine> make_msv_reference_engine();

}  // namespace warpdp
