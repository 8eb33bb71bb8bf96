// The models of gpu-msv and gpu-viterbi: every model of a file, amino ones
// only (the tools search protein databases), each warned about when it is
// not calibrated, as hmmsearch would pass no target with it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/hmm.hpp"
#include "core/hmmer/hmm_reader.hpp"

namespace warpdp {

// Throws InputError unless `hmm` is an amino model; warns, unless quiet,
// when it has no STATS lines: "model "NAME" has no STATS lines" + no_stats.
void check_amino_model(const Hmm& hmm, const std::string& path, const std::string& tool, bool quiet,
                       const std::string& no_stats);

// Model is built from an Hmm (MsvModel, FilterModel), one model at a time
// after its check. Throws InputError when the file holds none.
template <class Model>
std::vector<Model> load_amino_models(const std::string& path, const std::string& tool, bool quiet,
                                     const std::string& no_stats) {
    std::vector<Model> models;
    for (auto& hmm : read_all_hmms(path)) {
        check_amino_model(hmm, path, tool, quiet, no_stats);
        models.emplace_back(std::move(hmm));
    }
    if (models.empty()) throw InputError(path, 0, "no HMM found");
    return models;
}

}  // namespace warpdp
