// Stop signals turned into events, for a tool that runs other programs.
//
// run_tool()'s handlers (core/io/output_file.hpp) end the process in the
// handler, which can only unlink files. A tool with children and a scratch
// directory must do more before it ends: stop its children and wait for them
// (a child writes into the directory until it is gone) and remove the
// directory tree, none of which is safe inside a handler. While a
// StopSignalWatch lives, a stop signal only sets a flag and wakes wake_fd();
// the tool's next check throws StopSignal, the stack unwinds (the children's
// and the directory's destructors do the work), and run_tool() ends the
// process by that signal. SIGCHLD wakes wake_fd() too, so that one poll()
// waits for a child's end, a descriptor and a stop signal alike.
//
// The handlers are installed without SA_RESTART: a call blocked on the
// outside world (opening a FIFO nobody opens, reading a terminal) returns
// EINTR instead of keeping the tool from its check.
#pragma once

namespace warpdp {

// Thrown once a stop signal has arrived. Deliberately not a std::exception:
// no handler meant for errors takes it for one; run_tool() catches it.
struct StopSignal {
    int signal;
};

class StopSignalWatch {
public:
    // One watch at a time. Signals ignored when it starts (nohup's SIGHUP)
    // stay ignored.
    StopSignalWatch();
    // Puts the previous handlers back.
    ~StopSignalWatch();
    StopSignalWatch(const StopSignalWatch&) = delete;
    StopSignalWatch& operator=(const StopSignalWatch&) = delete;

    // Readable after a stop signal or a child's end.
    int wake_fd() const noexcept;
    // Empties wake_fd(); call it before looking at what may have woken it.
    void drain() const noexcept;
    // The first stop signal received, 0 while none.
    int received() const noexcept;
    // Throws StopSignal once one has arrived.
    void throw_if_stopped() const;
};

}  // namespace warpdp
