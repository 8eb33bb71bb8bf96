// libFuzzer harness for gpu-nw-dist's reader and distances: arbitrary bytes
// must either read as reads that obey AmpliconNoise's rules or raise an
// InputError, and read the same from their gzip or bgzip (gpu-nw-dist
// takes both); and on whatever reads come out, the forward forms must equal
// the matrix-and-traceback references (a differential check on inputs no
// one wrote by hand).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/base/errors.hpp"
#include "core/nw/nw_forward.hpp"
#include "core/nw/nw_reads.hpp"
#include "core/nw/nw_reference.hpp"
#include "fuzz_support.hpp"

using warpdp::fuzz::require;

namespace {
bool same(double x, double y) { return (std::isnan(x) && std::isnan(y)) || std::memcmp(&x, &y, sizeof x) == 0; }

// Everything a read yields, the error's text included; the distances are
// checked on the reads of the first call.
std::string read_all(const std::string& path, const warpdp::NwReadOptions& opt, bool check_distances) {
    std::string seen;
    try {
        uint64_t cuts = 0;
        const auto reads = warpdp::read_nw_reads(path, opt, [&](uint64_t line, const std::string& record, char c) {
            ++cuts;
            seen += "cut " + std::to_string(line) + " " + record + " " + c + "\n";
        });
        require(!opt.strict || cuts == 0);
        require(reads.offsets.size() == reads.size() + 1 && reads.offsets.back() == reads.letters.size());
        const std::string_view alphabet = warpdp::nw_alphabet(opt.metric);
        for (char c : reads.letters) require(alphabet.find(c) != std::string_view::npos && !(c >= 'a' && c <= 'z'));
        for (size_t i = 0; i < reads.size(); ++i) seen += reads.ids[i] + " " + std::string(reads.read(i)) + "\n";
        if (!check_distances) return seen;
        warpdp::NwScratch s;
        for (size_t i = 1; i < reads.size() && i < 4; ++i) {
            const auto a = reads.read(i), b = reads.read(i - 1);
            if (a.size() > 64 || b.size() > 64) continue;
            if (opt.metric == warpdp::NwMetric::ndist)
                require(same(warpdp::ndist_forward(a, b, s), warpdp::ndist_reference(a, b)));
            else
                require(same(warpdp::seqdist_forward(a, b, warpdp::tran_dat(), s),
                             warpdp::seqdist_reference(a, b, warpdp::tran_dat())));
        }
    } catch (const warpdp::InputError& e) {
        // Bad input, reported properly.
        seen += std::string("error: ") + e.what();
    }
    return seen;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = warpdp::fuzz::input_path(data, size);
    warpdp::NwReadOptions opt;
    opt.metric = size % 2 ? warpdp::NwMetric::ndist : warpdp::NwMetric::seqdist;
    opt.strict = size % 3 == 0;
    opt.max_length = 200;
    const std::string plain = read_all(path, opt, true);
    if (const auto packed = warpdp::fuzz::compressed_input_path(data, size))
        warpdp::fuzz::require_equal(plain, read_all(*packed, opt, false));
    return 0;
}
