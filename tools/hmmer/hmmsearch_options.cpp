// hmmsearch's option table and the two passes over its command line: the
// spellings made plain, then the options read.
#include "tools/hmmer/hmmsearch_options.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include <boost/program_options.hpp>

#include "core/base/errors.hpp"

namespace po = boost::program_options;

namespace warpdp {

namespace {

// hmmsearch 3.3.2's options (its --mpi and --stall exist only in MPI builds).
const po::options_description& long_options() {
    static const po::options_description table = [] {
        po::options_description d;
        for (const char* name : {"tblout", "domtblout", "pfamtblout", "textw", "domE", "domT", "incE", "incT",
                                 "incdomE", "incdomT", "F1", "F2", "F3", "domZ", "seed", "tformat", "cpu", "ssifile",
                                 "restrictdb_n", "restrictdb_stkey"})
            d.add_options()(name, po::value<std::string>());
        for (const char* name : {"acc", "noali", "notextw", "cut_ga", "cut_nc", "cut_tc", "max", "nobias", "nonull2"})
            d.add_options()(name, po::bool_switch());
        return d;
    }();
    return table;
}

const po::options_description& short_options() {
    static const po::options_description table = [] {
        po::options_description d;
        for (const char* name : {",o", ",A", ",E", ",T", ",Z"}) d.add_options()(name, po::value<std::string>());
        d.add_options()(",h", po::bool_switch());
        return d;
    }();
    return table;
}

// The option a plain spelling ("--tblout", "-Z") names, or null.
const po::option_description* find_plain(const std::string& spelling) {
    if (spelling.size() > 2 && spelling.compare(0, 2, "--") == 0 && spelling[2] != '-')
        return long_options().find_nothrow(spelling.substr(2), false);
    if (spelling.size() == 2 && spelling[0] == '-' && spelling[1] != '-')
        return short_options().find_nothrow(spelling, false);
    return nullptr;
}

bool takes_value(const std::string& spelling) {
    const po::option_description* o = find_plain(spelling);
    return o && o->semantic()->max_tokens() > 0;
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

bool is_value_letter(char c) { return c == 'o' || c == 'A' || c == 'E' || c == 'T' || c == 'Z'; }

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

bool asks_for_help(std::span<const std::string> args) {
    return std::find(args.begin(), args.end(), "-h") != args.end();
}

bool asks_for_own_help(std::span<const std::string> args) {
    return std::find(args.begin(), args.end(), "--help") != args.end();
}

HmmsearchCommand read_hmmsearch_command(std::span<const std::string> args) {
    const std::vector<std::string> plain = plain_spellings(args);
    HmmsearchCommand c;
    // hmmsearch refuses these given twice; the run's outputs depend on them.
    auto once = [](std::string& slot, const std::string& opt, const std::string& value) {
        if (!slot.empty()) throw UsageError("option " + opt + " has already been set");
        slot = value;
    };
    size_t i = 0;
    const size_t n = plain.size();
    while (n - i > 2) {
        const std::string& opt = plain[i++];
        c.options.push_back(opt);
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
            once(c.cpu, opt, value);
            continue;
        }
        if (opt == "-o") {
            once(c.main_out, opt, value);
            continue;
        }
        if (opt == "--tblout") {
            once(c.tbl_out, opt, value);
            continue;
        }
        if (opt == "--domtblout") {
            once(c.dom_out, opt, value);
            continue;
        }
        if (opt == "-A") once(c.ali_out, opt, value);
        else if (opt == "--pfamtblout") once(c.pfam_out, opt, value);
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
    if (!c.cpu.empty()) c.cpu_threads = whole_number("--cpu", c.cpu);
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
