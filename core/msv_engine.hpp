// One interface for the three forms of the MSV filter (scalar reference,
// optimized CPU engine, CUDA engine). A chunk of targets is loaded once and
// stays resident (on the GPU, or pinned on the host) while models stream.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/msv_profile.hpp"
#include "core/seq_batch.hpp"

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
};

// The scalar reference as an engine (used by tests and as a last resort).
std::unique_ptr<MsvEngine> make_msv_reference_engine();
// The optimized CPU engine; threads = 0 means all cores.
std::unique_ptr<MsvEngine> make_msv_cpu_engine(unsigned threads);

}  // namespace warpdp
