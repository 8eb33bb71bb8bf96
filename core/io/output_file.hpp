// Where a tool's results go: stdout, or a file written atomically (a
// temporary file beside the target, renamed over it only on commit(), removed
// if the tool fails first). An existing device, FIFO or symlink (/dev/null, a
// named pipe) is written in place instead. A reader that closes the pipe early (`| head`)
// surfaces as BrokenPipe, which tools turn into a quiet exit. A tool stopped by
// SIGINT, SIGTERM or SIGHUP removes its temporaries too
// (remove_temporaries_on_stop_signals).
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

private:
    void check_stream();
    std::string path_;
    std::string tmp_path_;
    int tmp_slot_ = -1;  // its entry in the signal handler's list
    std::FILE* stream_ = nullptr;
    bool is_stdout_ = false;
    bool in_place_ = false;  // an existing non-regular file: no temporary, no rename
    bool committed_ = false;
};

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
