// hmmsearch's option table and the two passes over its command line: the
// spellings made plain, then the options read.
#include "tools/hmmer/hmmsearch_options.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include <boost/program_options.hpp>

#include "core/base/errors.hpp"
#include "tools/hmmer/hmmer_real.hpp"

namespace po = boost::program_options;

namespace warpdp {

namespace {

constexpr double kAny = std::numeric_limits<double>::quiet_NaN();
constexpr OptionValue kNone = OptionValue::none, kText = OptionValue::text, kInt = OptionValue::integer,
                      kReal = OptionValue::real;
#define WARPDP_CUTS "--cut_ga --cut_nc --cut_tc "
#define WARPDP_THRESHOLDS "-E -T --domE --domT --incE --incT --incdomE --incdomT "

// hmmsearch 3.3.2's options (its --mpi and --stall exist only in MPI
// builds; --cpu's default, p7_NCPU, is 2 in Debian's build).
constexpr HmmsearchOption kOptions[] = {
    {"-o", kText, "", kAny, false, "", true},
    {"-A", kText, "", kAny, false, "", true},
    {"--tblout", kText, "", kAny, false, "", true},
    {"--domtblout", kText, "", kAny, false, "", true},
    {"--pfamtblout", kText, "", kAny, false, "", true},
    {"--acc", kNone, "", kAny, false, "", true},
    {"--noali", kNone, "", kAny, false, "", true},
    {"--notextw", kNone, "", kAny, false, "--textw ", true},
    {"--textw", kInt, "120", 120, true, "--notextw ", true},
    {"-E", kReal, "10.0", 0, false, "-T " WARPDP_CUTS, true},
    {"-T", kReal, "", kAny, false, "-E " WARPDP_CUTS, true},
    {"--domE", kReal, "10.0", 0, false, "--domT " WARPDP_CUTS, true},
    {"--domT", kReal, "", kAny, false, "--domE " WARPDP_CUTS, true},
    {"--incE", kReal, "0.01", 0, false, "--incT " WARPDP_CUTS, true},
    {"--incT", kReal, "", kAny, false, "--incE " WARPDP_CUTS, true},
    {"--incdomE", kReal, "0.01", 0, false, "--incdomT " WARPDP_CUTS, true},
    {"--incdomT", kReal, "", kAny, false, "--incdomE " WARPDP_CUTS, true},
    {"--cut_ga", kNone, "", kAny, false, WARPDP_THRESHOLDS WARPDP_CUTS, true},
    {"--cut_nc", kNone, "", kAny, false, WARPDP_THRESHOLDS WARPDP_CUTS, true},
    {"--cut_tc", kNone, "", kAny, false, WARPDP_THRESHOLDS WARPDP_CUTS, true},
    {"--max", kNone, "", kAny, false, "--F1 --F2 --F3 ", true},
    {"--F1", kReal, "0.02", kAny, false, "--max ", true},
    {"--F2", kReal, "1e-3", kAny, false, "--max ", true},
    {"--F3", kReal, "1e-5", kAny, false, "--max ", true},
    {"--nobias", kNone, "", kAny, false, "--max ", true},
    {"--nonull2", kNone, "", kAny, false, "", true},
    {"-Z", kReal, "", 0, false, "", true},
    {"--domZ", kReal, "", 0, false, "", true},
    {"--seed", kInt, "42", 0, true, "", true},
    {"--tformat", kText, "", kAny, false, "", true},
    {"--cpu", kInt, "2", 0, true, "", true},
    // (targets picked by their place in the database: plain hmmsearch)
    {"--restrictdb_stkey", kText, "0", kAny, false, "", false},
    {"--restrictdb_n", kInt, "-1", kAny, false, "", false},
    {"--ssifile", kText, "", kAny, false, "", false},
};
#undef WARPDP_CUTS
#undef WARPDP_THRESHOLDS

// The table's names for Boost's lookup of a long option's abbreviations.
const po::options_description& long_options() {
    static const po::options_description table = [] {
        po::options_description d;
        for (const HmmsearchOption& o : kOptions) {
            if (o.name.size() < 3) continue;
            const std::string name(o.name.substr(2));
            if (o.value == OptionValue::none) d.add_options()(name.c_str(), po::bool_switch());
            else d.add_options()(name.c_str(), po::value<std::string>());
        }
        return d;
    }();
    return table;
}

bool takes_value(const std::string& spelling) {
    const HmmsearchOption* o = find_hmmsearch_option(spelling);
    return o && o->value != OptionValue::none;
}

// "--" and the long option that `name` (after the dashes) spells or
// abbreviates; `name` itself when it names none or several.
std::string plain_long_name(const std::string& name) {
    if (name.empty() || name[0] == '-') return "--" + name;
    try {
        if (const po::option_description* o = long_options().find_nothrow(name, true)) return "--" + o->long_name();
    } catch (const po::ambiguous_option&) {
    }
    return "--" + name;
}

bool is_value_letter(char c) { return takes_value(std::string{'-', c}); }

// First pass: every spelling made plain, the last two arguments (the files) untouched.
std::vector<std::string> plain_spellings(std::span<const std::string> args) {
    std::vector<std::string> plain;
    size_t i = 0;
    const size_t n = args.size();
    while (n - i > 2) {
        const std::string& a = args[i++];
        const size_t left = n - i;
        if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
            const size_t eq = a.find('=');
            const std::string name = plain_long_name(a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2));
            plain.push_back(name);
            if (eq != std::string::npos) plain.push_back(a.substr(eq + 1));
            else if (takes_value(name) && left > 2) plain.push_back(args[i++]);
        } else if (a == "--") {
            if (left != 2) plain.push_back(a);  // (before the two files it only ends the options)
        } else if (a.size() > 2 && a[0] == '-' && is_value_letter(a[1])) {
            plain.push_back(a.substr(0, 2));
            plain.push_back(a.substr(2));
        } else if (a.size() == 2 && a[0] == '-' && is_value_letter(a[1])) {
            plain.push_back(a);
            if (left > 2) plain.push_back(args[i++]);
        } else {
            plain.push_back(a);
        }
    }
    plain.insert(plain.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
    return plain;
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string upper(std::string s) {
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace

const HmmsearchOption* find_hmmsearch_option(std::string_view name) {
    for (const HmmsearchOption& o : kOptions)
        if (o.name == name) return &o;
    return nullptr;
}

std::optional<double> hmmsearch_number(const HmmsearchOption& o, const std::string& value) {
    std::optional<double> x;
    if (o.value == OptionValue::integer) {
        if (const auto n = parse_hmmer_int(value)) x = *n;
    } else if (o.value == OptionValue::real) {
        x = parse_hmmer_real(value);
    }
    // (a NaN is outside every range, as Easel compares)
    if (x && !std::isnan(o.min) && !(o.min_included ? *x >= o.min : *x > o.min)) return std::nullopt;
    return x;
}

bool asks_for_help(std::span<const std::string> args) {
    return std::find(args.begin(), args.end(), "-h") != args.end();
}

bool asks_for_own_help(std::span<const std::string> args) {
    return std::find(args.begin(), args.end(), "--help") != args.end();
}

HmmsearchCommand read_hmmsearch_command(std::span<const std::string> args) {
    const std::vector<std::string> plain = plain_spellings(args);
    HmmsearchCommand c;
    std::set<std::string> given;
    size_t i = 0;
    const size_t n = plain.size();
    while (n - i > 2) {
        const std::string& opt = plain[i++];
        c.options.push_back(opt);
        // (an unknown option is hmmsearch's to refuse; "--" is no option)
        if (find_hmmsearch_option(opt) && !given.insert(opt).second)
            throw UsageError("option " + opt + " has already been set");
        if (opt == "--max" || opt == "--restrictdb_n" || opt == "--restrictdb_stkey" || opt == "--ssifile")
            c.plain_only = true;
        else if (opt == "--nobias") c.nobias = true;
        else if (opt == "--cut_ga" || opt == "--cut_tc" || opt == "--cut_nc") c.cutoff = upper(opt.substr(6));
        if (!takes_value(opt)) {
            c.per_model_options.push_back(opt);
            continue;
        }
        if (n - i <= 2) throw UsageError("option " + opt + " needs a value");
        const std::string& value = plain[i++];
        c.options.push_back(value);
        if (opt == "--cpu") {
            const auto cpu = hmmsearch_number(*find_hmmsearch_option(opt), value);
            if (!cpu) throw UsageError("--cpu " + value + ": expected a whole number");
            c.cpu = value;
            c.cpu_threads = static_cast<uint64_t>(*cpu);
            continue;
        }
        if (opt == "-o") {
            c.main_out = value;
            continue;
        }
        if (opt == "--tblout") {
            c.tbl_out = value;
            continue;
        }
        if (opt == "--domtblout") {
            c.dom_out = value;
            continue;
        }
        if (opt == "-A") c.ali_out = value;
        else if (opt == "--pfamtblout") c.pfam_out = value;
        if (opt == "--F1") c.F1 = value;
        else if (opt == "--F2") c.F2 = value;
        else if (opt == "--F3") c.F3 = value;
        else if (opt == "-Z") c.has_Z = true;
        else if (opt == "-A" || opt == "--pfamtblout") c.splittable = false;
        else if (opt == "--tformat" && lower(value) != "fasta")
            throw UsageError("--tformat " + value + ": gpu-hmmsearch reads FASTA targets only");
        c.per_model_options.push_back(opt);
        c.per_model_options.push_back(value);
    }
    if (n - i != 2) throw UsageError("usage: gpu-hmmsearch [hmmsearch options] MODELS.hmm TARGETS.fa");
    c.models = plain[i];
    c.targets = plain[i + 1];
    return c;
}

uint64_t whole_number(const std::string& what, const std::string& text) {
    if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        throw UsageError(what + " " + text + ": expected a whole number");
    uint64_t v = 0;
    for (char c : text) {
        const uint64_t d = static_cast<uint64_t>(c - '0');
        v = v > (UINT64_MAX - d) / 10 ? UINT64_MAX : v * 10 + d;
    }
    return v;
}

std::vector<std::string> options_check_options(const HmmsearchCommand& command) {
    std::vector<std::string> a;
    const auto& opts = command.per_model_options;
    for (size_t i = 0; i < opts.size(); ++i) {
        a.push_back(opts[i]);
        if ((opts[i] == "-A" || opts[i] == "--pfamtblout") && i + 1 < opts.size()) {
            a.push_back("/dev/null");
            ++i;
        }
    }
    return a;
}

std::vector<std::string> with_output_files(const std::vector<std::string>& options, const OutputFiles& files) {
    const std::pair<const char*, const std::string*> outs[] = {{"-o", &files.main},
                                                               {"--tblout", &files.tbl},
                                                               {"--domtblout", &files.dom},
                                                               {"-A", &files.ali},
                                                               {"--pfamtblout", &files.pfam}};
    std::vector<std::string> a;
    for (size_t i = 0; i < options.size(); ++i) {
        a.push_back(options[i]);
        if (!takes_value(options[i]) || i + 1 >= options.size()) continue;
        std::string value = options[++i];
        for (const auto& [name, file] : outs)
            if (options[i - 1] == name && !file->empty()) value = *file;
        a.push_back(value);
    }
    return a;
}

}  // namespace warpdp
