// The NW metrics (NDist, SeqDist), the SeqDist substitution table and the
// letter codes they score.
#include "core/nw/nw_metric.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/base/errors.hpp"

namespace warpdp {

NwMetric parse_nw_metric(const std::string& name) {
    if (name == "ndist") return NwMetric::ndist;
    if (name == "seqdist") return NwMetric::seqdist;
    throw UsageError("--metric must be ndist or seqdist, not \"" + name + "\"");
}

const char* nw_metric_name(NwMetric m) noexcept { return m == NwMetric::ndist ? "ndist" : "seqdist"; }

std::string_view nw_alphabet(NwMetric m) noexcept {
    return m == NwMetric::ndist ? std::string_view("acgturynACGTURYN-") : std::string_view("ACGT");
}

namespace {
// Debian's /usr/share/ampliconnoise/Data/Tran.dat, byte for byte.
constexpr const char* kTranDat =
    "-0.000000,11.619259,11.694004,7.748623\n"
    "11.619259,-0.000000,7.619657,12.852562\n"
    "11.694004,7.619657,-0.000000,10.964048\n"
    "7.748623,12.852562,10.964048,-0.000000\n";
}  // namespace

const SeqDistTable& tran_dat() {
    static const SeqDistTable t = parse_seqdist_table(kTranDat, "built-in Tran.dat");
    return t;
}

SeqDistTable parse_seqdist_table(const std::string& text, const std::string& origin) {
    SeqDistTable t;
    std::istringstream in(text);
    std::string line;
    for (int row = 0; row < 4; ++row) {
        if (!std::getline(in, line))
            throw InputError(origin, static_cast<uint64_t>(row + 1), "expected 4 lines of 4 comma-separated costs");
        if (!line.empty() && line.back() == '\r') line.pop_back();
        size_t pos = 0;
        for (int col = 0; col < 4; ++col) {
            const size_t comma = line.find(',', pos);
            if ((col < 3) != (comma != std::string::npos))
                throw InputError(origin, static_cast<uint64_t>(row + 1), "expected 4 comma-separated costs");
            const std::string tok = line.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
            // strtod's value as SeqDist takes it: out of range means +-inf or a
            // subnormal (or 0), not an error
            char* end = nullptr;
            const double v = std::strtod(tok.c_str(), &end);
            if (tok.empty() || *end != '\0')
                throw InputError(origin, static_cast<uint64_t>(row + 1), "not a number: \"" + tok + "\"");
            t.cost[static_cast<size_t>(row * 4 + col)] = v;
            pos = comma + 1;
        }
    }
    return t;
}

SeqDistTable read_seqdist_table(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw InputError(path, 0, "cannot open lookup table");
    std::ostringstream s;
    s << f.rdbuf();
    return parse_seqdist_table(s.str(), path);
}

namespace nw_code {
uint8_t ndist(char c) noexcept {
    switch (c) {
        case 'A': return 1;
        case 'C': return 2;
        case 'G': return 3;
        case 'T': return 4;
        case 'U': return 5;
        case 'R': return 6;
        case 'Y': return 7;
        case 'N': return ndist_N;
        default: return ndist_gap;  // '-': the only other letter NDist keeps
    }
}
uint8_t seqdist(char c) noexcept {
    switch (c) {
        case 'A': return 0;
        case 'C': return 1;
        case 'T': return 2;
        default: return 3;  // 'G'
    }
}
}  // namespace nw_code

}  // namespace warpdp
