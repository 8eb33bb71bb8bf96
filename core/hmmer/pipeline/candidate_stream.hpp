// Reading gpu-msv's output as gpu-viterbi's candidate stream: TSV (with its
// '#' header naming the columns) or JSON Lines, detected from the first
// character. Only the columns that identify a candidate are taken
// (candidate_columns.hpp); scores are recomputed exactly downstream, never
// parsed back from rounded text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpdp {

struct Candidate {
    std::string model;   // as written by gpu-msv, TSV escapes undone
    std::string target;
    uint64_t target_len = 0;
    // The model's place in the HMM file and the target's in the database
    // (from 0, every record counted), when the stream has gpu-msv's
    // model_index/target_index columns: they tell apart models or targets
    // that share a name. Without them candidates are matched by name.
    std::optional<uint64_t> model_index, target_index;
    bool from_json = false;  // JSON strings replace bytes that are not UTF-8 (U+FFFD)
    bool bias_on = true;  // false when the stream's bias columns are absent (--nobias)
    bool passed = false;  // gpu-msv's decision (rows of --all may have 0)
    uint64_t line = 0;    // where it came from, for error messages
};

// Whether a name read from the stream is `original` as gpu-msv wrote it:
// equal, or through JSON equal after the same replacement of bytes that are
// not UTF-8.
bool stream_name_is(const Candidate& c, const std::string& stream_name, const std::string& original);

struct CandidateStream {
    std::vector<Candidate> rows;
    // Neither a header nor a row: an empty file, or the JSON Lines of a
    // gpu-msv run without survivors (its TSV always has the header). Callers
    // warn, since a step that failed upstream also leaves an empty file.
    bool blank = true;
};

// Reads every row of `path` ("-" = stdin), plain text, gzip or bgzip. Throws InputError naming the
// file and line for malformed rows, missing columns or unknown formats. In
// TSV a line starting with '#' is a header only when it repeats the first
// (streams concatenated); otherwise it is a row whose model's name starts
// with '#'.
CandidateStream read_candidates(const std::string& path);

}  // namespace warpdp
