// One output from the outputs of several hmmsearch runs, one model each, as
// one hmmsearch over all the models would have written it: the first run's
// header and footer (naming the user's files, not the run's own), and every
// run's results between them, in model order. Lines are copied as bytes:
// names and descriptions need not be UTF-8.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace warpdp {

class OutputFile;

// The names the stitched headers show.
struct StitchedNames {
    std::string models, targets;            // the files the user named
    std::string main_out, tbl_out, dom_out;  // -o, --tblout, --domtblout; empty: not given
};

// hmmsearch's main output (-o): the first run's header up to its first
// "Query:" line, every run's query blocks (from "Query:" up to "[ok]"),
// then "[ok]".
void stitch_main_output(const std::vector<std::string>& runs, const StitchedNames& names, OutputFile& out);

// A --tblout or --domtblout table: the first run's three header lines, every
// run's rows (after its header, up to the lone "#" that opens its footer: a
// row itself starts with "#" when the target's name does), the first run's
// footer.
void stitch_table(const std::vector<std::string>& runs, const StitchedNames& names, OutputFile& out);

// The runs' files, in model order: -o of each, and --tblout and --domtblout
// when the user asked for them.
struct RunOutputs {
    std::vector<std::string> main, tbl, dom;
};

// One of the user's outputs: its path (empty or "-": stdout) and what writes
// its content.
struct PendingOutput {
    std::string path;
    std::function<void(OutputFile&)> write;
};

// Writes every output whole, or changes none of them (as far as a device or
// a pipe allows): regular files (new paths, and the files symlinks name)
// are written to temporaries beside them and flushed, so that a full disk
// shows now; then stdout, devices and FIFOs are written and flushed in place; only
// then are the temporaries renamed into place, and the rest closed. A
// reader of stdout (or of a FIFO) that has gone (`| head`: it has what it
// wanted) does not stop the others: BrokenPipe is thrown once all are
// delivered. Throws ResourceError "cannot write PATH: why" (PATH "stdout"
// for stdout).
void deliver_outputs(const std::vector<PendingOutput>& outputs);

// Writes the stitched main output (to stdout when -o was not given) and the
// tables asked for, through deliver_outputs().
void deliver_stitched_outputs(const RunOutputs& runs, const StitchedNames& names);

// The output of one run over all the models, as it is, but for the scratch
// paths in its lines that start with '#' (the header, the tables' footers,
// the main output's "# Alignment of N hits ... saved to:"), each replaced by
// what the user named: `renames` holds (scratch path, user's name) pairs. A
// missing `run` copies as empty (hmmsearch writes no -A file for no hits
// on some paths).
void copy_renamed(const std::string& run, const std::vector<std::pair<std::string, std::string>>& renames,
                  OutputFile& out);

// Refuses, before any work, an output that cannot be written: a directory, a
// path in a missing or unwritable folder (a temporary is made there and
// removed), a device or FIFO that cannot be opened for writing (opened
// without truncating it, and closed). Nothing about the path changes. A
// device that fails only when written (/dev/full) fails at delivery.
// Throws ResourceError "cannot write PATH: why"; stdout ("" or "-") passes.
void check_writable(const std::string& path);

}  // namespace warpdp
