// Numeric options read as hmmsearch (Easel's strtod, strtol and atoi) reads them.
#include "tools/hmmer/hmmer_real.hpp"

#include <cctype>
#include <cstdlib>

namespace po = boost::program_options;

namespace warpdp {

std::optional<double> parse_hmmer_real(const std::string& text) {
    const char* s = text.c_str();
    char* end = nullptr;
    const double v = std::strtod(s, &end);
    if (end == s) return std::nullopt;
    while (*end != '\0' && std::isspace(static_cast<unsigned char>(*end))) ++end;
    if (*end != '\0') return std::nullopt;
    return v;
}

std::optional<int> parse_hmmer_int(const std::string& text) {
    const char* s = text.c_str();
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    if (end == s) return std::nullopt;
    while (*end != '\0' && std::isspace(static_cast<unsigned char>(*end))) ++end;
    if (*end != '\0') return std::nullopt;
    // (atoi is strtol cut to int: its low 32 bits, as C++20 converts)
    return static_cast<int>(v);
}

void validate(boost::any& out, const std::vector<std::string>& values, HmmerReal*, int) {
    po::validators::check_first_occurrence(out);
    const std::string& text = po::validators::get_single_string(values);
    const auto v = parse_hmmer_real(text);
    if (!v) throw po::invalid_option_value(text);
    out = HmmerReal{*v};
}

}  // namespace warpdp
