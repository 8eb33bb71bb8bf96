// Targets that hmmsearch refuses for their length, counted as the chunks go by.
#include "core/hmmer/pipeline/overlong_targets.hpp"

namespace warpdp {

void OverlongTargets::add(const SeqBatch& chunk) {
    for (size_t i = 0; i < chunk.size(); ++i) {
        if (chunk.length(i) <= kHmmsearchMaxTargetLength) continue;
        if (count_++ == 0) {
            first_name_ = chunk.names[i];
            first_length_ = chunk.length(i);
        }
    }
}

std::string OverlongTargets::warning(const std::string& db_path) const {
    if (count_ == 0) return {};
    return std::to_string(count_) + (count_ == 1 ? " target of " : " targets of ") + db_path +
           (count_ == 1 ? " is" : " are") + " longer than 100,000 residues (the first: \"" + first_name_ + "\", " + std::to_string(first_length_) +
           "): scored here, but hmmsearch refuses them and stops the run";
}

}  // namespace warpdp
