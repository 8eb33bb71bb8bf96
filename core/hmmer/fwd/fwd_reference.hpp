// The scalar reference of HMMER 3.3.2's Forward parser (p7_ForwardParser,
// docs/hmmer-filters.md §7.2), the F3 stage of the pipeline: probability space, single
// precision, sparse rescaling, in the 4-lane striped order whose float
// rounding hmmsearch's scores carry. Every operation flushes denormal
// results to zero explicitly, so the reference does not depend on the FPU
// mode of the thread that calls it.
#pragma once

#include <cstdint>
#include <span>

#include "core/hmmer/fwd/fwd_profile.hpp"

namespace warpdp {

// Forward score in nats, or NaN where HMMER's parser raises an error.
float fwd_reference(const FwdProfile& p, std::span<const uint8_t> dsq);

}  // namespace warpdp
