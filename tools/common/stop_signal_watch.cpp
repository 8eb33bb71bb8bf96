// StopSignalWatch: a flag and a self-pipe written by the signal handlers.
#include "tools/common/stop_signal_watch.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "core/base/errors.hpp"
#include "core/io/output_file.hpp"

namespace warpdp {

namespace {

volatile std::sig_atomic_t g_stop = 0;
int g_wake[2] = {-1, -1};  // the self-pipe: read end, write end (both non-blocking)
std::vector<std::pair<int, struct sigaction>> g_previous;

extern "C" void note_signal(int sig) {
    const int saved = errno;  // (the interrupted code may be about to read errno)
    if (sig != SIGCHLD && g_stop == 0) g_stop = sig;
    const char byte = 0;
    // A full pipe already wakes the reader: the byte may be dropped.
    [[maybe_unused]] const ssize_t n = ::write(g_wake[1], &byte, 1);
    errno = saved;
}

// A stop signal the parent ignores stays ignored (nohup); SIGCHLD never does
// (over_ignored): ignored, the kernel reaps the children itself, so waitpid
// finds none and nothing wakes the tool when a run ends.
void install(int sig, int flags, bool over_ignored) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || (old.sa_handler == SIG_IGN && !over_ignored)) return;
    struct sigaction act {};
    act.sa_handler = note_signal;
    act.sa_flags = flags;
    sigemptyset(&act.sa_mask);
    if (::sigaction(sig, &act, nullptr) == 0) g_previous.emplace_back(sig, old);
}

}  // namespace

StopSignalWatch::StopSignalWatch() {
    if (g_wake[0] >= 0) throw InternalError("a second StopSignalWatch");
    if (::pipe2(g_wake, O_CLOEXEC | O_NONBLOCK) != 0)
        throw ResourceError(std::string("cannot make a pipe: ") + std::strerror(errno));
    g_stop = 0;
    for (int sig : stop_signals()) install(sig, 0, false);
    // (restarted: a child's end must not interrupt the tool's own reads and writes)
    install(SIGCHLD, SA_RESTART | SA_NOCLDSTOP, true);
}

StopSignalWatch::~StopSignalWatch() {
    for (auto& [sig, old] : g_previous) ::sigaction(sig, &old, nullptr);
    g_previous.clear();
    ::close(g_wake[0]);
    ::close(g_wake[1]);
    g_wake[0] = g_wake[1] = -1;
}

int StopSignalWatch::wake_fd() const noexcept { return g_wake[0]; }

void StopSignalWatch::drain() const noexcept {
    char buf[256];
    while (::read(g_wake[0], buf, sizeof buf) > 0) {
    }
}

int StopSignalWatch::received() const noexcept { return g_stop; }

void StopSignalWatch::throw_if_stopped() const {
    if (g_stop != 0) throw StopSignal{g_stop};
}

}  // namespace warpdp
