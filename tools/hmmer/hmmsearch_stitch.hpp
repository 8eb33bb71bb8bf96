// One output from the outputs of several hmmsearch runs, one model each, as
// one hmmsearch over all the models would have written it: the first run's
// header and footer (naming the user's files, not the run's own), and every
// run's results between them, in model order. Lines are copied as bytes:
// names and descriptions need not be UTF-8.
#pragma once

#include <string>
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

// Writes the stitched main output (to stdout when -o was not given) and the
// tables asked for: each whole or not at all, and all of them or none. Each
// regular file is stitched into a temporary beside it, and only once all
// are complete are they renamed into place; stdout, a device, a FIFO or a
// symlink is written in place (OutputFile), after the files. Throws
// ResourceError "cannot write PATH", or BrokenPipe when stdout's reader has
// gone (`| head`: it has what it wanted).
void deliver_stitched_outputs(const RunOutputs& runs, const StitchedNames& names);

}  // namespace warpdp
