// Other programs run by a tool: started with fork and exec, watched through a
// StopSignalWatch (one poll() for a child's end, a descriptor or a stop
// signal), and never left behind: a ChildProcess still running when its
// owner goes (an error, a stop signal) is stopped and waited for, so that
// whatever it was writing is finished before the owner removes it. A child
// whose work is done may be released to end on its own.
//
// An owner killed outright (SIGKILL, the OOM killer) runs no destructor: so
// each child asks the kernel for SIGKILL when its parent goes
// (PR_SET_PDEATHSIG), between fork and exec, where posix_spawn has no hook.
// The kernel sends it when the *thread* that forked ends: children are
// started from the main thread, whose end is the process's.
#pragma once

#include <span>
#include <string>
#include <vector>

#include <sys/types.h>

#include "core/base/errors.hpp"

namespace warpdp {

class StopSignalWatch;

// How a child ended.
struct ExitStatus {
    int code = 0;    // its exit code, when it exited
    int signal = 0;  // the signal that ended it, else 0
    bool ok() const noexcept { return code == 0 && signal == 0; }
    // As a shell's $? reads it: 128 + the signal for a child a signal ended.
    int shell_code() const noexcept { return signal != 0 ? 128 + signal : code; }
};

// A signal's short name as `kill -l` prints it ("SEGV"), "?" when unknown.
std::string signal_name(int signal);

// A failure passed on from a child, with an exit code that follows the
// child's: a tool that runs another program exits as that program did when
// it refused its input (hmmsearch refusing an option exits 1, as hmmsearch).
class ChildFailure : public Error {
public:
    ChildFailure(const std::string& what, int exit_code) : Error(what), code_(exit_code) {}
    ExitCode exit_code() const noexcept override { return static_cast<ExitCode>(code_); }

private:
    int code_;
};

struct SpawnOptions {
    std::string stdin_path;   // empty: inherited
    std::string stdout_path;  // created or truncated; empty: inherited (unless stdout_fd)
    int stdout_fd = -1;       // a descriptor to become the child's stdout
    bool stderr_to_stdout = false;
    std::string stderr_path;  // created or truncated; empty: inherited (or stdout's)
    int niceness = 0;  // added to ours, as nice(1) -n does
};

class ChildProcess {
public:
    // argv[0] is looked up in PATH unless it holds a '/'. The child starts
    // with no signal blocked, SIGPIPE at its default (tools ignore it), and
    // dies with its parent. Throws ResourceError when the program cannot be
    // started (its files opened, or the program run).
    explicit ChildProcess(const std::vector<std::string>& argv, const SpawnOptions& options = {});
    // A child still running and not released gets SIGTERM (SIGKILL if it
    // is still there after a few seconds) and is waited for.
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t pid() const noexcept { return pid_; }
    // Reaps the child if it has ended (never blocks); true once it has.
    bool poll();
    bool finished() const noexcept { return finished_; }
    // How it ended; only once finished().
    const ExitStatus& status() const noexcept { return status_; }
    // Blocks until it ends (a stop signal throws StopSignal).
    const ExitStatus& wait(const StopSignalWatch& watch);
    // Sends SIGTERM if it still runs (not released); the destructor waits.
    void terminate() const noexcept;
    // Sets its niceness (its main thread's, as renice(1) does).
    void renice(int niceness) const noexcept;
    // Its work is done: it may end on its own, and is neither stopped nor
    // waited for.
    void release() noexcept { released_ = true; }

private:
    pid_t pid_ = -1;
    bool finished_ = false;
    bool released_ = false;
    ExitStatus status_;
};

// Blocks until one of `children` (those not finished) ends, `fd` (if not -1)
// has something to read or is closed at its other end, or a stop signal
// arrives (throws StopSignal). Returns at once if a child has already ended.
void wait_for_any(const StopSignalWatch& watch, std::span<ChildProcess* const> children, int fd = -1);

// Replaces this process by the program (argv[0] looked up in PATH), SIGPIPE
// back at its default. Throws ResourceError if it cannot be run.
[[noreturn]] void exec_program(const std::vector<std::string>& argv);

}  // namespace warpdp
