// hmmsearch's command line as gpu-hmmsearch reads it: which options the
// filters and the stitching of the final runs depend on, and which go on to
// hmmsearch as they are.
//
// hmmsearch (Easel's getopts) takes several spellings of one option:
// --opt=value, an unambiguous abbreviation of a long option (--nob), a value
// glued to a one-letter option (-Z1000). Each is first made plain, so that
// `--nob` turns the bias filter off here as it does in hmmsearch; an
// abbreviation that is ambiguous or unknown goes on as written, for hmmsearch
// to refuse with its own message. The option table is a
// Boost.Program_options description, whose lookup is Easel's rule (an exact
// name wins, else a unique prefix, else ambiguous). The walk over the
// arguments is Easel's, not Boost's parser: an option takes the next
// argument as its value whatever it looks like (`--domE -5`), unknown
// options are hmmsearch's to judge, and the last two arguments are always
// the model and target files.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace warpdp {

// hmmsearch 3.3.2's option table, as Easel checks it (docs/hmmer-filters.md
// §16.7): the one list that the command line's reading, the last stage's
// coverage and the report options read.
enum class OptionValue { none, text, integer, real };  // none: a switch

struct HmmsearchOption {
    std::string_view name;      // the plain spelling: "-E", "--textw"
    OptionValue value;
    // Easel's default, as text: a value spelled so counts as not given
    // (esl_opt_IsUsed), so the header leaves it out. Empty: none.
    std::string_view default_text;
    // The numbers allowed: above `min` (at or above with `min_included`);
    // NaN: any.
    double min;
    bool min_included;
    std::string_view excludes;  // the options hmmsearch refuses beside it, each followed by a blank
    bool covered;               // by warpdp's own last stage
};

// The option a plain spelling names, or null (-h and hmmsearch's MPI-only
// options are not in the table).
const HmmsearchOption* find_hmmsearch_option(std::string_view name);

// `value` of `o` as hmmsearch uses it (an integer as atoi makes it), or
// nothing when hmmsearch refuses it (its type or its range). Only for
// integer and real options.
std::optional<double> hmmsearch_number(const HmmsearchOption& o, const std::string& value);

// True when `value` is spelled as `o`'s default: Easel then counts `o` as
// not given.
inline bool spelled_as_default(const HmmsearchOption& o, const std::string& value) {
    return !o.default_text.empty() && value == o.default_text;
}

struct HmmsearchCommand {
    // Every option, made plain, in order: for one hmmsearch over all models.
    std::vector<std::string> options;
    // The same but -o, --tblout, --domtblout and --cpu (with their values):
    // for the runs of one model each, which write to files of their own.
    std::vector<std::string> per_model_options;
    // As written: gpu-viterbi reads them as hmmsearch does.
    std::string F1 = "0.02", F2 = "0.001", F3 = "1e-5";
    bool nobias = false;
    bool has_Z = false;
    // --max turns every filter off (nothing to accelerate); --restrictdb_n,
    // --restrictdb_stkey and --ssifile pick targets by their place in the
    // database, which the survivors do not keep.
    bool plain_only = false;
    // -A and --pfamtblout are not stitched: then one run over all models.
    bool splittable = true;
    std::string cutoff;  // "GA", "TC" or "NC" for --cut_ga, --cut_tc, --cut_nc (the last given); empty
    std::string cpu, main_out, tbl_out, dom_out;  // the values of --cpu, -o, --tblout, --domtblout; empty: not given
    std::string ali_out, pfam_out;                // the values of -A, --pfamtblout; empty: not given
    uint64_t cpu_threads = 0;                     // --cpu's value, as hmmsearch reads it
    std::string models, targets;
};

// True when any argument is "-h", wherever it stands (gpu-hmmsearch then
// shows hmmsearch's help).
bool asks_for_help(std::span<const std::string> args);

// True when any argument is "--help" (gpu-hmmsearch's own help; hmmsearch
// has no such option).
bool asks_for_own_help(std::span<const std::string> args);

// Reads the arguments after the program name. Throws UsageError for an
// option without its value, an option given twice (as hmmsearch refuses
// either), --tformat other than FASTA, fewer than two files, or a --cpu that
// hmmsearch refuses (its value is wanted before any hmmsearch runs).
HmmsearchCommand read_hmmsearch_command(std::span<const std::string> args);

// `text` as a whole number (digits only; past 2^64 - 1 it saturates).
// Throws UsageError "WHAT TEXT: expected a whole number".
uint64_t whole_number(const std::string& what, const std::string& text);

// The options for hmmsearch's own check of them (one model, one empty
// target): per_model_options with the files of -A and --pfamtblout made
// /dev/null, so that the check writes nothing.
std::vector<std::string> options_check_options(const HmmsearchCommand& command);

// The files a run writes in place of the user's (scratch files, delivered
// once the run has succeeded); empty: that output was not asked for.
struct OutputFiles {
    std::string main, tbl, dom, ali, pfam;  // -o, --tblout, --domtblout, -A, --pfamtblout
};

// `options` (HmmsearchCommand::options, made plain) with the values of -o,
// --tblout, --domtblout, -A and --pfamtblout replaced by those of `files`
// that are set.
std::vector<std::string> with_output_files(const std::vector<std::string>& options, const OutputFiles& files);

}  // namespace warpdp
