// gpu-viterbi's candidates per model (model_candidates.hpp).
#include "tools/hmmer/model_candidates.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "core/base/errors.hpp"
#include "tools/common/tool_main.hpp"

namespace warpdp {

std::vector<FilterCandidates> candidates_per_model(CandidateStream& stream, const std::vector<FilterModel>& models,
                                                   const std::string& hmm_path, const std::string& cand_name) {
    std::map<std::string, size_t> by_name;
    std::set<std::string> shared_names;  // held by more than one model
    for (size_t mi = 0; mi < models.size(); ++mi)
        if (!by_name.emplace(models[mi].msv.hmm.name, mi).second) shared_names.insert(models[mi].msv.hmm.name);
    std::vector<FilterCandidates> candidates(models.size());
    for (auto& c : stream.rows) {
        if (!c.passed) continue;  // rows of `gpu-msv --all` that failed there
        size_t mi = 0;
        if (c.model_index) {
            if (*c.model_index >= models.size())
                throw InputError(cand_name, c.line, "model_index " + std::to_string(*c.model_index) + ", but " +
                                                        hmm_path + " holds " + std::to_string(models.size()) +
                                                        " models (a different model file?)");
            mi = static_cast<size_t>(*c.model_index);
            const std::string& name = models[mi].msv.hmm.name;
            if (!stream_name_is(c, c.model, name))
                throw InputError(cand_name, c.line, "model_index " + std::to_string(mi) + " is \"" + name + "\" in " +
                                                        hmm_path + " but \"" + c.model +
                                                        "\" in the candidates (a different model file?)");
        } else {
            auto it = by_name.find(c.model);
            if (it == by_name.end() && c.from_json)
                it = std::find_if(by_name.begin(), by_name.end(),
                                  [&](const auto& kv) { return stream_name_is(c, c.model, kv.first); });
            if (it == by_name.end())
                throw InputError(cand_name, c.line, "unknown model \"" + c.model + "\" (not in " + hmm_path + ")");
            if (shared_names.count(it->first))
                throw InputError(cand_name, c.line, "more than one model in " + hmm_path + " is named \"" + it->first +
                                                        "\": the stream needs gpu-msv's model_index column");
            mi = it->second;
        }
        candidates[mi].list.push_back(std::move(c));
    }
    return candidates;
}

uint64_t candidate_cells(const std::vector<FilterCandidates>& candidates, const std::vector<FilterModel>& models) {
    uint64_t cells = 0;
    for (size_t mi = 0; mi < models.size(); ++mi)
        for (const auto& c : candidates[mi].list) cells += c.target_len * static_cast<uint64_t>(models[mi].msv.hmm.M);
    return cells;
}

std::vector<FilterCandidates> load_model_candidates(const std::string& path, const std::vector<FilterModel>& models,
                                                    const std::string& hmm_path, const std::string& cand_name,
                                                    const std::string& tool, bool quiet) {
    if (path.empty()) return std::vector<FilterCandidates>(models.size());
    CandidateStream stream = read_candidates(path);
    if (stream.blank && !quiet)
        warn(tool, cand_name + " is empty: no candidates (gpu-msv's tsv starts with a header line even then)");
    return candidates_per_model(stream, models, hmm_path, cand_name);
}

}  // namespace warpdp
