// libFuzzer harness for the HMM reader and everything built from a model:
// arbitrary bytes (plain, or gzip when the fuzzer finds the magic) must
// either read as models whose profiles (float, MSV bytes, Viterbi words,
// Forward odds, bias filter) build cleanly, or raise an InputError; and
// read the same from their gzip or bgzip. Crashes, sanitizer reports
// (including float-to-int overflow from absurd probabilities), other
// exception types (an InternalError from a profile is a model the reader
// should have refused) are findings. Bytes reach the reader through a memfd.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"
#include "core/hmmer/fwd/fwd_reference.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/msv/msv_model.hpp"
#include "core/hmmer/msv/msv_reference.hpp"
#include "core/hmmer/vit/vit_profile.hpp"
#include "core/hmmer/vit/vit_reference.hpp"
#include "fuzz_support.hpp"

using warpdp::fuzz::require;

namespace {

template <class T>
void append_bytes(std::string& s, const T& v) {
    s.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof v[0]);
}

// Everything the reader gives (the models, or the error's text); the
// profiles are built and run on the models of the first call only.
std::string read_all(const std::string& path, size_t size, bool run_profiles) {
    std::string seen;
    try {
        warpdp::HmmReader reader(path);
        warpdp::Hmm hmm;
        int models = 0;
        while (reader.next(hmm) && models++ < 4) {
            require(hmm.M >= 1 && hmm.t.size() == static_cast<size_t>(hmm.M) + 1);
            seen += hmm.name + "|" + hmm.acc + "|" + hmm.desc + "|" + std::to_string(hmm.M) + "|";
            append_bytes(seen, hmm.t);
            append_bytes(seen, hmm.mat);
            append_bytes(seen, hmm.ins);
            append_bytes(seen, hmm.compo);
            append_bytes(seen, hmm.evparam);
            if (!run_profiles || hmm.M > 2000) continue;  // keep one input fast
            warpdp::MsvModel msv(hmm);
            const auto words = warpdp::build_vit_profile(msv.prof);
            const auto odds = warpdp::build_fwd_profile(msv.prof);
            // A short target of residue codes (canonical and degenerate)
            // through the references and the bias filter.
            std::vector<uint8_t> dsq;
            const size_t codes = static_cast<size_t>(msv.prof.Kp) - 2;  // not '*' or '~'
            for (size_t i = 0; i < 24; ++i) dsq.push_back(static_cast<uint8_t>((i * 7 + size) % codes));
            (void)warpdp::msv_reference(msv.bytes, dsq);
            (void)warpdp::vit_reference(words, dsq);
            (void)warpdp::fwd_reference(odds, dsq);
            (void)msv.bias.filter_score(dsq);
        }
    } catch (const warpdp::InputError& e) {
        // bad input, reported as such: fine
        seen += std::string("error: ") + e.what();
    }
    return seen;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string plain = read_all(warpdp::fuzz::input_path(data, size), size, true);
    if (const auto packed = warpdp::fuzz::compressed_input_path(data, size))
        warpdp::fuzz::require_equal(plain, read_all(*packed, size, false));
    return 0;
}
