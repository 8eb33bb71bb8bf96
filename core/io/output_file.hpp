// Where a tool's results go: stdout, or a file written atomically. The one
// output policy of every tool (docs/architecture.md, "Outputs"):
// - a regular file (or a new path) is written to a temporary in the target's
//   folder and renamed over it only on commit(); any failure or stop signal
//   removes the temporary, so the target keeps its old content;
// - a symlink is followed: the link stays, the file it names is replaced;
// - the new file gets the existing file's mode, or 0666 less the umask;
// - an existing device or FIFO (/dev/null, a named pipe) is written in place;
// - an unwritable target is refused when the OutputFile is made, so tools
//   make every output before any work;
// - a reader that closes stdout early (`| head`) ends the run quietly
//   (BrokenPipe) only when no file output is still open; otherwise stdout's
//   remaining text is dropped and the run goes on to commit the files.
#pragma once

#include <cstdio>
#include <exception>
#include <span>
#include <string>
#include <string_view>

namespace warpdp {

struct BrokenPipe : std::exception {
    const char* what() const noexcept override { return "broken pipe"; }
};

class OutputFile {
public:
    // path empty or "-": stdout.
    explicit OutputFile(const std::string& path);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    void write(std::string_view text);
    // Hands what is buffered to the file now (a FIFO's reader sees it).
    // Throws as commit().
    void flush();
    // Flushes; for a file, renames the temporary over the target. Throws
    // ResourceError (disk full, ...) or BrokenPipe.
    void commit();
    const std::string& path() const noexcept { return path_; }
    // The file the path names once symlinks are followed (what commit replaces).
    const std::string& target() const noexcept { return target_; }

private:
    void check_stream();
    std::string path_;
    std::string target_;
    std::string tmp_path_;
    int tmp_slot_ = -1;  // its entry in the signal handler's list
    std::FILE* stream_ = nullptr;
    bool is_stdout_ = false;
    bool in_place_ = false;  // an existing non-regular file: no temporary, no rename
    bool committed_ = false;
    bool reader_gone_ = false;  // stdout only: its reader left while files were open
    bool counted_ = false;      // a file output counted in the open-files tally
};

// Follows a chain of symlinks (relative ones from their link's folder) to
// the path they end at, existing or not. Throws ResourceError on a loop.
std::string follow_symlinks(const std::string& path);

// The permission bits a file created with open(O_CREAT, 0666) would get.
unsigned new_file_mode();

// Flushes stdout and closes it (descriptor 1 then writes to /dev/null), so
// that whoever reads it sees the end now rather than when the process has
// freed its engines (a CUDA context takes ~0.1 s to tear down). Call it once
// every output is complete. Throws BrokenPipe or ResourceError, as commit().
void finish_stdout();

// Ignore SIGPIPE so a closed pipe shows up as EPIPE on write (then BrokenPipe).
void ignore_sigpipe();

// Installs handlers for the stop signals (those not ignored) that
// remove every uncommitted OutputFile's temporary file, then end the process
// by the same signal. run_tool() calls it.
void remove_temporaries_on_stop_signals();

// The stop signals: every signal whose default ends the process and that a
// user, a scheduler (SLURM's --signal sends USR1 by default; CPU limits XCPU)
// or `timeout -s` may send. One list for every tool that cleans up after them.
std::span<const int> stop_signals() noexcept;

}  // namespace warpdp
