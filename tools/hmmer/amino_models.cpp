// The models of gpu-msv and gpu-viterbi (amino_models.hpp).
#include "tools/hmmer/amino_models.hpp"

#include "core/base/alphabet.hpp"
#include "tools/common/tool_main.hpp"

namespace warpdp {

void check_amino_model(const Hmm& hmm, const std::string& path, const std::string& tool, bool quiet,
                       const std::string& no_stats) {
    if (hmm.alph != AlphabetKind::amino)
        throw InputError(path, 0, "model \"" + hmm.name + "\" is " + std::string(Alphabet::of(hmm.alph).name()) +
                                      "; " + tool + " searches protein databases with amino models");
    if (!hmm.has_stats && !quiet) warn(tool, "model \"" + hmm.name + "\" has no STATS lines" + no_stats);
}

}  // namespace warpdp
