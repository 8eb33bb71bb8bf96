// A tool's outputs must not land on its inputs or on each other: `-o db.fa`
// or `--survivors db.fa` would replace the database when the run commits, and
// `-o x --stats x` would keep only one of the two. Checked once the command
// line is read, before any work.
#pragma once

#include <string>
#include <vector>

namespace warpdp {

struct NamedPath {
    std::string option;  // as the user wrote it, for the message: "--db", "-o"
    // Inputs: empty or "-" is stdin, never a clash. Outputs: "-" is stdout,
    // empty is none (a caller passes "-" for an output that defaults to
    // stdout, such as -o).
    std::string path;
};

// Throws UsageError naming both options when an output is the same file as
// an input or as another output, or when two outputs are stdout. The same file: one inode for paths that
// exist (links, "./x" and "x"), else the same normalised absolute path.
// Outputs that are existing devices, FIFOs or sockets are written in place
// and may be shared (two outputs to /dev/null); so may inputs of any kind.
void refuse_shared_paths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs);

// The same file, as refuse_shared_paths() tells it (for a tool whose
// command line is not its own: gpu-hmmsearch takes hmmsearch's).
bool same_file(const std::string& a, const std::string& b);

}  // namespace warpdp
