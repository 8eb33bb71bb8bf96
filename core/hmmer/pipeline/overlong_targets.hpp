// hmmsearch 3.3.2 stops the whole run at the first target longer than
// 100,000 residues ("Target sequence length > 100K, over comparison pipeline
// limit", p7_Pipeline, before any filter), whatever its score. The filters
// score such targets exactly as they score any other; the tools count them,
// warn, and report the count (`targets_over_100k` in --stats), so that
// gpu-hmmsearch can refuse the database as hmmsearch would.
#pragma once

#include <cstdint>
#include <string>

#include "core/io/seq_batch.hpp"

namespace warpdp {

inline constexpr uint64_t kHmmsearchMaxTargetLength = 100000;

class OverlongTargets {
public:
    void add(const SeqBatch& chunk);
    uint64_t count() const noexcept { return count_; }
    // "N targets of DB are longer than ..., the first ...": empty when there are none.
    std::string warning(const std::string& db_path) const;

private:
    uint64_t count_ = 0;
    std::string first_name_;
    uint64_t first_length_ = 0;
};

}  // namespace warpdp
