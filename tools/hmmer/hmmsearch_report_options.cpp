#include "tools/hmmer/hmmsearch_report_options.hpp"

#include <cerrno>
#include <cstdlib>
#include <map>

#include "core/base/errors.hpp"

namespace warpdp {

namespace {

// Easel reads reals with strtod and integers with strtol, the whole text.
double real_value(const std::string& opt, const std::string& v) {
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0') throw UsageError("option " + opt + ": " + v + " is not a real number");
    return x;
}

int int_value(const std::string& opt, const std::string& v) {
    char* end = nullptr;
    errno = 0;
    const long x = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || errno != 0 || x < INT32_MIN || x > INT32_MAX)
        throw UsageError("option " + opt + ": " + v + " is not an integer");
    return static_cast<int>(x);
}

}  // namespace

ReportOptions read_report_options(const std::vector<std::string>& options) {
    ReportOptions o;
    for (size_t i = 0; i < options.size(); ++i) {
        const std::string& opt = options[i];
        const std::string value = i + 1 < options.size() ? options[i + 1] : std::string();
        auto real = [&](std::optional<double>& slot) {
            slot = real_value(opt, value);
            ++i;
        };
        // Easel counts an option whose value is spelled as its default as not
        // given (esl_opt_IsUsed): hmmsearch's header then leaves it out, and
        // its effect is the default's.
        static const std::map<std::string, std::string> defaults{
            {"-E", "10.0"},     {"--domE", "10.0"}, {"--incE", "0.01"}, {"--incdomE", "0.01"}, {"--F1", "0.02"},
            {"--F2", "1e-3"},   {"--F3", "1e-5"},   {"--seed", "42"},   {"--textw", "120"}};
        if (const auto d = defaults.find(opt); d != defaults.end() && d->second == value) {
            ++i;
            continue;
        }
        if (opt == "-E") real(o.E);
        else if (opt == "-T") real(o.T);
        else if (opt == "--domE") real(o.domE);
        else if (opt == "--domT") real(o.domT);
        else if (opt == "--incE") real(o.incE);
        else if (opt == "--incT") real(o.incT);
        else if (opt == "--incdomE") real(o.incdomE);
        else if (opt == "--incdomT") real(o.incdomT);
        else if (opt == "-Z") real(o.Z);
        else if (opt == "--domZ") real(o.domZ);
        else if (opt == "--F1") real(o.F1);
        else if (opt == "--F2") real(o.F2);
        else if (opt == "--F3") real(o.F3);
        else if (opt == "--cut_ga") o.cutoff = ModelCutoff::ga;
        else if (opt == "--cut_tc") o.cutoff = ModelCutoff::tc;
        else if (opt == "--cut_nc") o.cutoff = ModelCutoff::nc;
        else if (opt == "--max") o.max = true;
        else if (opt == "--nobias") o.nobias = true;
        else if (opt == "--nonull2") o.nonull2 = true;
        else if (opt == "--noali") o.noali = true;
        else if (opt == "--notextw") o.notextw = true;
        else if (opt == "--acc") o.acc = true;
        else if (opt == "--seed") o.seed = int_value(opt, value), ++i;
        else if (opt == "--textw") o.textw = int_value(opt, value), ++i;
        else if (opt == "-o" || opt == "-A" || opt == "--tblout" || opt == "--domtblout" || opt == "--pfamtblout" ||
                 opt == "--tformat" || opt == "--cpu" || opt == "--restrictdb_n" || opt == "--restrictdb_stkey" ||
                 opt == "--ssifile")
            ++i;
    }
    return o;
}

}  // namespace warpdp
