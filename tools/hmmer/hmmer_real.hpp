// Numeric options read as hmmsearch (Easel's option parser) reads them, for
// the HMMER tools.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

namespace warpdp {

// A real-valued option as hmmsearch takes it (Easel's option parser): the
// number strtod reads, with blanks around it; hex floats, inf and nan are
// numbers, and so are values out of range, as strtod returns them (1e400 is
// inf, 1e-400 is 0). "1e", "0.05x" or "" are not. Declared with
// po::value<HmmerReal>; a refusal reads as boost's own for a bad value.
struct HmmerReal {
    double value = 0;
};
std::optional<double> parse_hmmer_real(const std::string& text);
void validate(boost::any& out, const std::vector<std::string>& values, HmmerReal*, int);

// An integer-valued option as hmmsearch takes it: what strtol reads in base
// 10, with blanks around it ("+7", " 7 ", "007"; not "7.0", "0x7" or "1e3"),
// and as the int that atoi makes of it: past the range of int it wraps
// (4294967338 is 42; hmmsearch takes it so).
std::optional<int> parse_hmmer_int(const std::string& text);

}  // namespace warpdp
