// Reading gpu-msv's output as gpu-viterbi's candidate stream: TSV (with its
// '#' header naming the columns) or JSON Lines, detected from the first
// character. Only the columns that identify a candidate are taken; scores
// are recomputed exactly downstream, never parsed back from rounded text.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpdp {

struct Candidate {
    std::string model;
    std::string target;
    uint64_t target_len = 0;
    bool bias_on = true;  // false when the stream's bias columns are absent (--nobias)
    bool passed = false;  // gpu-msv's decision (rows of --all may have 0)
    uint64_t line = 0;    // where it came from, for error messages
};

// Reads every row of `path` ("-" = stdin). Throws InputError naming the
// file and line for malformed rows, missing columns or unknown formats.
std::vector<Candidate> read_candidates(const std::string& path);

}  // namespace warpdp
