// libFuzzer harness for the HMM reader and everything built from a model:
// arbitrary bytes (plain, or gzip when the fuzzer finds the magic) must
// either read as models whose profiles (float, MSV bytes, Viterbi words,
// bias filter) build cleanly, or raise a warpdp::Error. Crashes, sanitizer
// reports (including float-to-int overflow from absurd probabilities) and
// other exception types are findings. Bytes reach the reader through a memfd.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/msv/msv_model.hpp"
#include "core/hmmer/msv/msv_reference.hpp"
#include "core/hmmer/vit/vit_profile.hpp"
#include "core/hmmer/vit/vit_reference.hpp"
#include "fuzz_support.hpp"

using warpdp::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = warpdp::fuzz::input_path(data, size);
    try {
        warpdp::HmmReader reader(path);
        warpdp::Hmm hmm;
        int models = 0;
        while (reader.next(hmm) && models++ < 4) {
            require(hmm.M >= 1 && hmm.t.size() == static_cast<size_t>(hmm.M) + 1);
            if (hmm.M > 2000) continue;  // keep one input fast
            warpdp::MsvModel msv(hmm);
            const auto words = warpdp::build_vit_profile(msv.prof);
            // A short fixed target through both references and the bias filter.
            std::vector<uint8_t> dsq;
            for (size_t i = 0; i < 24; ++i) dsq.push_back(static_cast<uint8_t>((i * 7 + size) % 29));
            (void)warpdp::msv_reference(msv.bytes, dsq);
            (void)warpdp::vit_reference(words, dsq);
            if (hmm.alph == warpdp::AlphabetKind::amino) (void)msv.bias.filter_score(dsq);
        }
    } catch (const warpdp::Error&) {
        // bad input, reported as such: fine
    }
    return 0;
}
