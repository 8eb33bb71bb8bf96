// What every gpu-nw-dist engine (CPU, CUDA) does: distances for a list of
// pairs (A = row read, B = column read) of reads loaded once. Engines may
// compute the pairs in any order but write out[k] for pairs[k], and every
// engine returns the same doubles, bit for bit (NaN only as
// kNwNan, so printed and binary output do not depend on the device).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/nw/nw_metric.hpp"
#include "core/nw/nw_reads.hpp"

namespace warpdp {

struct NwPair {
    uint32_t a, b;
};

// The NaN SeqDist's 0/0 gives on x86 (sign bit set; prints "-nan").
inline double nw_canonical_nan() { return -std::numeric_limits<double>::quiet_NaN(); }

// Reads as an engine sees them: metric-specific letter codes.
struct NwCodedReads {
    NwMetric metric = NwMetric::ndist;
    SeqDistTable table;
    std::vector<uint8_t> codes;
    std::vector<uint64_t> offsets;
    std::vector<uint8_t> has_gap;  // NDist: the read contains a literal '-'
    size_t size() const noexcept { return has_gap.size(); }
    uint32_t length(size_t i) const noexcept { return static_cast<uint32_t>(offsets[i + 1] - offsets[i]); }
    const uint8_t* data(size_t i) const noexcept { return codes.data() + offsets[i]; }
};
NwCodedReads code_nw_reads(const NwReads& reads, NwMetric metric, const SeqDistTable& table);

class NwEngine {
public:
    virtual ~NwEngine() = default;
    virtual std::string name() const = 0;
    // `reads` must outlive the engine's use of it.
    virtual void load(const NwReads& reads, const NwCodedReads& coded) = 0;
    virtual void compute(std::span<const NwPair> pairs, std::span<double> out) = 0;
};


}  // namespace warpdp
