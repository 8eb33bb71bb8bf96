// One interface for the forms of the Viterbi filter (scalar reference,
// optimized CPU engine, CUDA engine). As for MSV, a chunk of targets is
// loaded once; each model then scores a subset of it (the MSV survivors in
// the pipeline, or every target for the Viterbi-alone run).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/hmmer/vit/vit_profile.hpp"
#include "core/io/seq_batch.hpp"

namespace warpdp {

class VitEngine {
public:
    virtual ~VitEngine() = default;
    virtual std::string name() const = 0;
    // Makes `targets` the resident chunk. The batch must outlive the scoring calls.
    virtual void load_targets(const SeqBatch& targets) = 0;
    // out[j] = raw Viterbi-filter result (see vit_reference.hpp) of `profile`
    // against target `which[j]` of the resident chunk.
    virtual void score(const VitWordProfile& profile, std::span<const uint32_t> which,
                       std::span<uint32_t> out) = 0;
};

std::unique_ptr<VitEngine> make_vit_reference_engine();

}  // namespace warpdp
