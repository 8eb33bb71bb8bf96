// ChildProcess: posix_spawnp, waitpid, and the poll() that waits for either.
#include "tools/common/child_process.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include "tools/common/stop_signal_watch.hpp"

extern char** environ;

namespace warpdp {

namespace {

// How long a stopped child may take to end before it is killed.
constexpr auto kStopGrace = std::chrono::seconds(5);

std::vector<char*> c_argv(const std::vector<std::string>& argv) {
    std::vector<char*> v;
    v.reserve(argv.size() + 1);
    for (const auto& a : argv) v.push_back(const_cast<char*>(a.c_str()));
    v.push_back(nullptr);
    return v;
}

ExitStatus decode(int wstatus) {
    ExitStatus s;
    if (WIFSIGNALED(wstatus)) s.signal = WTERMSIG(wstatus);
    else s.code = WEXITSTATUS(wstatus);
    return s;
}

// posix_spawn's calls return the error instead of setting errno.
void check(int err, const std::string& program) {
    if (err != 0) throw ResourceError("cannot start " + program + ": " + std::strerror(err));
}

}  // namespace

std::string signal_name(int signal) {
    const char* name = ::sigabbrev_np(signal);
    return name ? name : "?";
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const SpawnOptions& options) {
    if (argv.empty()) throw InternalError("a child process without a program");
    const std::string& program = argv[0];
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    check(posix_spawn_file_actions_init(&actions), program);
    if (const int err = posix_spawnattr_init(&attr); err != 0) {
        posix_spawn_file_actions_destroy(&actions);
        check(err, program);
    }
    int err = 0;
    if (!options.stdin_path.empty())
        err = err ? err : posix_spawn_file_actions_addopen(&actions, 0, options.stdin_path.c_str(), O_RDONLY, 0);
    if (options.stdout_fd >= 0) err = err ? err : posix_spawn_file_actions_adddup2(&actions, options.stdout_fd, 1);
    else if (!options.stdout_path.empty())
        err = err ? err
                  : posix_spawn_file_actions_addopen(&actions, 1, options.stdout_path.c_str(),
                                                     O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (options.stderr_to_stdout) err = err ? err : posix_spawn_file_actions_adddup2(&actions, 1, 2);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    err = err ? err : posix_spawnattr_setsigmask(&attr, &none);
    err = err ? err : posix_spawnattr_setsigdefault(&attr, &defaults);
    err = err ? err : posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    const auto args = c_argv(argv);
    if (err == 0) err = ::posix_spawnp(&pid_, program.c_str(), &actions, &attr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    check(err, program);
    // posix_spawn has no attribute for niceness. glibc's posix_spawn returns
    // once the child has exec'd, before the program's own start-up (the
    // dynamic loader, reading its command line): its threads, which inherit
    // the niceness of the thread that makes them, come after this.
    if (options.niceness != 0) {
        errno = 0;
        const int ours = ::getpriority(PRIO_PROCESS, 0);
        if (errno == 0) renice(std::clamp(ours + options.niceness, -20, 19));
    }
}

ChildProcess::~ChildProcess() {
    if (pid_ < 0 || finished_ || released_) return;
    ::kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + kStopGrace;
    while (!poll()) {
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid_, SIGKILL);
            int wstatus = 0;
            while (::waitpid(pid_, &wstatus, 0) < 0 && errno == EINTR) {
            }
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

bool ChildProcess::poll() {
    if (finished_) return true;
    int wstatus = 0;
    pid_t r;
    do r = ::waitpid(pid_, &wstatus, WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == 0) return false;
    finished_ = true;
    if (r < 0) status_ = ExitStatus{127, 0};  // (not our child: cannot happen)
    else status_ = decode(wstatus);
    return true;
}

const ExitStatus& ChildProcess::wait(const StopSignalWatch& watch) {
    ChildProcess* self = this;
    while (!finished_) wait_for_any(watch, std::span<ChildProcess* const>(&self, 1));
    return status_;
}

void ChildProcess::terminate() const noexcept {
    if (pid_ >= 0 && !finished_ && !released_) ::kill(pid_, SIGTERM);
}

void ChildProcess::renice(int niceness) const noexcept {
    if (pid_ >= 0 && !finished_) ::setpriority(PRIO_PROCESS, static_cast<id_t>(pid_), niceness);
}

void wait_for_any(const StopSignalWatch& watch, std::span<ChildProcess* const> children, int fd) {
    for (;;) {
        // Drained before the children are looked at: a child that ends after
        // the look leaves a byte in the pipe, and poll() returns at once.
        watch.drain();
        watch.throw_if_stopped();
        bool ended = false;
        for (ChildProcess* c : children)
            if (!c->finished() && c->poll()) ended = true;
        if (ended) return;
        pollfd fds[2] = {{watch.wake_fd(), POLLIN, 0}, {fd, POLLIN, 0}};
        const int n = ::poll(fds, fd >= 0 ? 2 : 1, -1);
        if (n < 0 && errno != EINTR) throw ResourceError(std::string("poll failed: ") + std::strerror(errno));
        if (n > 0 && fd >= 0 && fds[1].revents != 0) {
            watch.throw_if_stopped();
            return;
        }
    }
}

void exec_program(const std::vector<std::string>& argv) {
    std::signal(SIGPIPE, SIG_DFL);
    const auto args = c_argv(argv);
    ::execvp(args[0], args.data());
    const int err = errno;
    std::signal(SIGPIPE, SIG_IGN);
    throw ResourceError("cannot run " + argv[0] + ": " + std::strerror(err));
}

}  // namespace warpdp
