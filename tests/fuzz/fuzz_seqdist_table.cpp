// libFuzzer harness for gpu-nw-dist's SeqDist lookup table (--lookup FILE,
// or $SEQ_LOOKUP_FILE): arbitrary bytes must either read as 16 costs or
// raise an InputError. Whatever costs come out (inf, NaN, subnormal,
// negative: strtod takes them all, as SeqDist does) then drive the SeqDist
// forward form and the matrix-and-traceback reference over a few fixed
// read pairs, which must give the same distance bit for bit.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/base/errors.hpp"
#include "core/nw/nw_forward.hpp"
#include "core/nw/nw_metric.hpp"
#include "core/nw/nw_reference.hpp"
#include "fuzz_support.hpp"

using warpdp::fuzz::require;

namespace {

bool same(double x, double y) { return (std::isnan(x) && std::isnan(y)) || std::memcmp(&x, &y, sizeof x) == 0; }

// Reads that meet every cell kind: substitutions of each pair, gaps inside
// and at either end, homopolymer runs, one read empty or both equal.
constexpr std::string_view kReads[] = {"ACGTACGT", "ACGGTTACG", "TTTTGCA", "AAAACCCCGGGGTTTT", "G", "", "CAGT"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    warpdp::SeqDistTable table;
    try {
        table = warpdp::read_seqdist_table(warpdp::fuzz::input_path(data, size));
    } catch (const warpdp::InputError&) {
        return 0;  // bad input, reported properly
    }
    warpdp::NwScratch s;
    const size_t n = sizeof kReads / sizeof kReads[0];
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i; j < n; ++j)
            require(same(warpdp::seqdist_forward(kReads[i], kReads[j], table, s),
                         warpdp::seqdist_reference(kReads[i], kReads[j], table)));
    return 0;
}
