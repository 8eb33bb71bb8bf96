// The post-filter stages' float work on one GPU (docs/hmmer-filters.md
// §16.10): stage A as parser jobs of the CUDA Forward/Backward engine, stage
// C as its full jobs, whose posteriors stay on the device for the
// optimal-accuracy engine; every model's calls of one parsers() or
// envelopes() share the launches. Equal to the CPU batch kernels to the
// bit. No CUDA types.
#pragma once

#include <memory>

#include "core/hmmer/domains/dom_batch.hpp"

namespace warpdp {

// Throws ResourceError in a build without CUDA or where the device cannot
// be used. A job too large for the device's memory is a ResourceError of
// the call that holds it. `share` in (0, 1]: the part of the card's matrix
// budget this instance takes, so that several instances, each on its own
// stream, stay within one's (§16.10).
std::unique_ptr<DomBatchKernels> make_dom_cuda_batch_kernels(int device, double share = 1.0);

}  // namespace warpdp
