// gpu-hmmsearch's query models: what it needs to know of each (name, length,
// alphabet, whether it has the thresholds --cut_ga/--cut_tc/--cut_nc ask
// for) and each one's text in a file of its own, for the final hmmsearch of
// that model alone.
//
// The models are read by the project's HMM reader, which also refuses a
// malformed file, naming file and line. The reader keeps probabilities, not
// text, so each model's text is cut from the file separately: a model starts
// at the line whose first word is its format tag ("HMMER3/f ..."), and in a
// file the reader takes no other line starts so (a tag anywhere else is an
// error there); it runs to the next such line, blank and comment lines
// after its "//" included. Lines before the first model belong to none. The
// two readings must find as many models, or the run stops.
#pragma once

#include <string>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/hmmer/hmm.hpp"

namespace warpdp {

// What a model file holds, by its first bytes (after gzip, if it is
// compressed; NUL bytes dropped).
enum class ModelFileKind {
    hmmer3_text,  // "HMMER3/...": the only kind the filters read
    other_hmmer,  // HMMER2 text, hmmpress'd binary, or text hmmsearch may still read: plain hmmsearch's
};

// Throws InputError naming `shown_path` (the name the user gave: `path` may be
// a copy of stdin) for a file that cannot be read, is empty, or starts with
// neither a model's format line nor a binary model's magic number: those
// would fail in hmmsearch too, where a message about the file is the answer.
// A missing file whose hmmpress'd binary (PATH.h3m) exists is hmmsearch's.
ModelFileKind model_file_kind(const std::string& path, const std::string& shown_path);

struct QueryModel {
    std::string name;
    int length = 0;
    AlphabetKind alph = AlphabetKind::amino;
    std::string file;         // its text alone
    bool has_cutoff = true;   // its header holds the cutoff line asked for (always, when none is)
};

// The models of `path` read whole, for a search that needs no model's text
// alone (warpdp's own last stage): `models` gets each one's QueryModel
// (file empty). Errors as split_query_models'.
std::vector<Hmm> read_query_hmms(const std::string& path, const std::string& shown_path, const std::string& cutoff,
                                 std::vector<QueryModel>& models);

// Reads the models of `path` (plain or gzip) and writes each one's text to
// dir/model.<i>.hmm, i from 1 in file order. `cutoff` ("GA", "TC", "NC" or
// empty) names the header line whose presence has_cutoff tells. Reader
// errors name `shown_path` (the name the user gave: `path` may be a copy of
// stdin). Throws InputError, ResourceError.
std::vector<QueryModel> split_query_models(const std::string& path, const std::string& shown_path,
                                           const std::string& dir, const std::string& cutoff);

}  // namespace warpdp
