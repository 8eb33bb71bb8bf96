// ChildProcess: fork and exec, waitpid, and the poll() that waits for either.
#include "tools/common/child_process.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

#include <poll.h>
#include <pthread.h>
#include <sys/prctl.h>
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

void check(int err, const std::string& program) {
    if (err != 0) throw ResourceError("cannot start " + program + ": " + std::strerror(err));
}

}  // namespace

std::string signal_name(int signal) {
    const char* name = ::sigabbrev_np(signal);
    return name ? name : "?";
}

namespace {

// What a child does between fork and exec, with nothing but
// async-signal-safe calls (the parent's locks may be held by other
// threads): reports errno through `report` and ends if anything fails.
struct ChildSetup {
    const char* stdin_path = nullptr;
    const char* stdout_path = nullptr;
    const char* stderr_path = nullptr;
    int stdout_fd = -1;
    bool stderr_to_stdout = false;
    bool set_niceness = false;
    int niceness = 0;
    pid_t parent = -1;
    int report = -1;
    char* const* argv = nullptr;
};

[[noreturn]] void child_fail(int report) {
    const int err = errno;
    [[maybe_unused]] const ssize_t n = ::write(report, &err, sizeof err);
    ::_exit(127);
}

// Makes `fd` the descriptor `target`, open across exec.
void put_at(int fd, int target, int report) {
    if (fd == target) {
        if (::fcntl(fd, F_SETFD, 0) != 0) child_fail(report);
        return;
    }
    if (::dup2(fd, target) < 0) child_fail(report);
}

void open_at(const char* path, int flags, int target, int report) {
    const int fd = ::open(path, flags | O_CLOEXEC, 0666);
    if (fd < 0) child_fail(report);
    put_at(fd, target, report);
    if (fd != target) ::close(fd);
}

[[noreturn]] void run_child(const ChildSetup& c) {
    // Our handlers would act for the parent here (its temporaries, its
    // wake-up pipe): defaults first, then the mask the fork kept is lifted.
    for (int sig = 1; sig < NSIG; ++sig) {
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) != 0) continue;
        const bool handled = (old.sa_flags & SA_SIGINFO) || (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN);
        if (handled || sig == SIGPIPE) {
            struct sigaction dfl {};
            dfl.sa_handler = SIG_DFL;
            sigemptyset(&dfl.sa_mask);
            ::sigaction(sig, &dfl, nullptr);
        }
    }
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    // A parent that died before the request is not waited for: it had
    // already gone when getppid() no longer names it.
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) child_fail(c.report);
    if (::getppid() != c.parent) ::_exit(127);
    if (c.stdin_path) open_at(c.stdin_path, O_RDONLY, 0, c.report);
    if (c.stdout_fd >= 0) put_at(c.stdout_fd, 1, c.report);
    else if (c.stdout_path) open_at(c.stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 1, c.report);
    if (c.stderr_path) open_at(c.stderr_path, O_WRONLY | O_CREAT | O_TRUNC, 2, c.report);
    else if (c.stderr_to_stdout) put_at(1, 2, c.report);
    if (c.set_niceness && ::setpriority(PRIO_PROCESS, 0, c.niceness) != 0) child_fail(c.report);
    ::execvp(c.argv[0], c.argv);
    child_fail(c.report);
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const SpawnOptions& options) {
    if (argv.empty()) throw InternalError("a child process without a program");
    const std::string& program = argv[0];
    const auto args = c_argv(argv);
    ChildSetup c;
    if (!options.stdin_path.empty()) c.stdin_path = options.stdin_path.c_str();
    if (!options.stdout_path.empty()) c.stdout_path = options.stdout_path.c_str();
    if (!options.stderr_path.empty()) c.stderr_path = options.stderr_path.c_str();
    c.stdout_fd = options.stdout_fd;
    c.stderr_to_stdout = options.stderr_to_stdout;
    if (options.niceness != 0) {
        errno = 0;
        const int ours = ::getpriority(PRIO_PROCESS, 0);
        c.set_niceness = errno == 0;
        c.niceness = std::clamp(ours + options.niceness, -20, 19);
    }
    c.parent = ::getpid();
    c.argv = args.data();
    int report[2];
    if (::pipe2(report, O_CLOEXEC) != 0) check(errno, program);
    c.report = report[1];
    // Every signal blocked across the fork: none may run a handler of ours
    // in the child before run_child() has put the defaults back.
    sigset_t all, old;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &old);
    pid_ = ::fork();
    if (pid_ == 0) run_child(c);
    const int fork_err = errno;
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    ::close(report[1]);
    if (pid_ < 0) {
        ::close(report[0]);
        check(fork_err, program);
    }
    // The report's write end closes at exec: end of file is success.
    int child_err = 0;
    ssize_t n;
    while ((n = ::read(report[0], &child_err, sizeof child_err)) < 0 && errno == EINTR) {
    }
    ::close(report[0]);
    if (n > 0) {
        int wstatus = 0;
        while (::waitpid(pid_, &wstatus, 0) < 0 && errno == EINTR) {
        }
        finished_ = true;
        check(child_err != 0 ? child_err : EIO, program);
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
