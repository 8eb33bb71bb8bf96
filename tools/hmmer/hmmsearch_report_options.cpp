#include "tools/hmmer/hmmsearch_report_options.hpp"

#include "core/base/errors.hpp"
#include "tools/hmmer/hmmsearch_options.hpp"

namespace warpdp {

ReportOptions read_report_options(const std::vector<std::string>& options) {
    ReportOptions o;
    for (size_t i = 0; i < options.size(); ++i) {
        const std::string& opt = options[i];
        const HmmsearchOption* known = find_hmmsearch_option(opt);
        if (!known) continue;
        if (known->value != OptionValue::none) {
            const std::string value = i + 1 < options.size() ? options[++i] : std::string();
            // An option spelled as its default counts as not given: the
            // header leaves it out, and its effect is the default's.
            if (spelled_as_default(*known, value) || known->value == OptionValue::text) continue;
            const auto x = hmmsearch_number(*known, value);
            if (!x) throw UsageError("option " + opt + ": hmmsearch refuses " + value);
            if (opt == "-E") o.E = x;
            else if (opt == "-T") o.T = x;
            else if (opt == "--domE") o.domE = x;
            else if (opt == "--domT") o.domT = x;
            else if (opt == "--incE") o.incE = x;
            else if (opt == "--incT") o.incT = x;
            else if (opt == "--incdomE") o.incdomE = x;
            else if (opt == "--incdomT") o.incdomT = x;
            else if (opt == "-Z") o.Z = x;
            else if (opt == "--domZ") o.domZ = x;
            else if (opt == "--F1") o.F1 = x;
            else if (opt == "--F2") o.F2 = x;
            else if (opt == "--F3") o.F3 = x;
            else if (opt == "--seed") o.seed = static_cast<int>(*x);
            else if (opt == "--textw") o.textw = static_cast<int>(*x);
            continue;
        }
        if (opt == "--cut_ga") o.cutoff = ModelCutoff::ga;
        else if (opt == "--cut_tc") o.cutoff = ModelCutoff::tc;
        else if (opt == "--cut_nc") o.cutoff = ModelCutoff::nc;
        else if (opt == "--max") o.max = true;
        else if (opt == "--nobias") o.nobias = true;
        else if (opt == "--nonull2") o.nonull2 = true;
        else if (opt == "--noali") o.noali = true;
        else if (opt == "--notextw") o.notextw = true;
        else if (opt == "--acc") o.acc = true;
    }
    return o;
}

}  // namespace warpdp
