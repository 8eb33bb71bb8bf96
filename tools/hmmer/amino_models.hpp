// The models of gpu-msv and gpu-viterbi: every model of a file, amino ones
// only (the tools search protein databases), each warned about when it is
// not calibrated, as hmmsearch would pass no target with it.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/base/errors.hpp"
#include "core/base/parallel.hpp"
#include "core/hmmer/hmm.hpp"
#include "core/hmmer/hmm_reader.hpp"

namespace warpdp {

// Throws InputError unless `hmm` is an amino model; warns, unless quiet,
// when it has no STATS lines: "model "NAME" has no STATS lines" + no_stats.
void check_amino_model(const Hmm& hmm, const std::string& path, const std::string& tool, bool quiet,
                       const std::string& no_stats);

// Model is built from an Hmm (MsvModel, FilterModel) after every model's
// check, on `threads` threads (its profiles take milliseconds a model, a
// Pfam-sized file's second). Throws InputError when the file holds none.
template <class Model>
std::vector<Model> load_amino_models(const std::string& path, const std::string& tool, bool quiet,
                                     const std::string& no_stats, unsigned threads) {
    std::vector<Hmm> hmms = read_all_hmms(path);
    for (const Hmm& hmm : hmms) check_amino_model(hmm, path, tool, quiet, no_stats);
    if (hmms.empty()) throw InputError(path, 0, "no HMM found");
    std::vector<std::optional<Model>> built(hmms.size());
    parallel_for(hmms.size(), threads, 1, [&](size_t i) { built[i].emplace(std::move(hmms[i])); });
    std::vector<Model> models;
    models.reserve(built.size());
    for (auto& m : built) models.push_back(std::move(*m));
    return models;
}

}  // namespace warpdp
