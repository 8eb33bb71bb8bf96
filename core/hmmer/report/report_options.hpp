// hmmsearch's reporting, inclusion and output options as a plain struct
// (docs/hmmer-filters.md §16.6). An option left unset is std::nullopt:
// the outputs name only the options that were given, and a score threshold
// given replaces the E-value one.
#pragma once

#include <optional>
#include <string>

namespace warpdp {

enum class ModelCutoff { none, ga, tc, nc };

struct ReportOptions {
    std::optional<double> E, T;               // -E, -T: sequences reported
    std::optional<double> domE, domT;         // --domE, --domT: domains reported
    std::optional<double> incE, incT;         // --incE, --incT: sequences included
    std::optional<double> incdomE, incdomT;   // --incdomE, --incdomT: domains included
    ModelCutoff cutoff = ModelCutoff::none;   // --cut_ga, --cut_tc, --cut_nc
    std::optional<double> Z, domZ;            // -Z, --domZ
    bool max = false;                         // --max
    std::optional<double> F1, F2, F3;         // --F1, --F2, --F3 as given
    bool nobias = false, nonull2 = false;     // --nobias, --nonull2
    std::optional<int> seed;                  // --seed (42 when unset)
    bool noali = false;                       // --noali
    bool notextw = false;                     // --notextw
    std::optional<int> textw;                 // --textw (120 when unset)
    bool acc = false;                         // --acc

    // The line width of the main output: 0 (unlimited) with --notextw.
    int line_width() const { return notextw ? 0 : textw.value_or(120); }
};

// The filter P-value thresholds the pipeline applies and prints: a value above
// 1 acts as 1; --max makes every one 1.
struct FilterThresholds {
    double F1 = 0.02, F2 = 1e-3, F3 = 1e-5;
};
FilterThresholds filter_thresholds(const ReportOptions& o);

}  // namespace warpdp
