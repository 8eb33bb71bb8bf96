// Child processes: started, their ends told apart (exit codes, signals),
// waited for beside a descriptor, stopped when their owner goes (killed
// with it when it is killed outright); stop signals turned into StopSignal;
// the scratch directory removed, and a killed owner's by a later run.
#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/errors.hpp"
#include "tools/common/child_process.hpp"
#include "tools/common/stop_signal_watch.hpp"
#include "tools/common/temp_dir.hpp"

using namespace warpdp;

TEST_CASE("exit codes and signals, as a shell reads them") {
    const StopSignalWatch watch;
    ChildProcess ok({"true"});
    CHECK(ok.wait(watch).ok());
    ChildProcess three({"sh", "-c", "exit 3"});
    CHECK(three.wait(watch).code == 3);
    CHECK(three.status().shell_code() == 3);
    ChildProcess segv({"sh", "-c", "kill -SEGV $$"});
    CHECK(segv.wait(watch).signal == SIGSEGV);
    CHECK(segv.status().shell_code() == 139);
    CHECK(signal_name(SIGSEGV) == "SEGV");
    CHECK_THROWS_WITH_AS(ChildProcess({"/nonexistent/program"}), doctest::Contains("cannot start /nonexistent/program"),
                         ResourceError);
}

TEST_CASE("output to a file, stderr with it; SIGPIPE at its default in the child") {
    TempDir dir("warpdp-test");
    const StopSignalWatch watch;
    std::signal(SIGPIPE, SIG_IGN);  // (as run_tool leaves it)
    SpawnOptions o;
    o.stdout_path = dir.file("out");
    o.stderr_to_stdout = true;
    ChildProcess c({"bash", "-c", "echo one; echo two >&2; trap -p PIPE"}, o);  // (an ignored SIGPIPE would show)
    CHECK(c.wait(watch).ok());
    std::ifstream in(dir.file("out"));
    std::string all((std::istreambuf_iterator<char>(in)), {});
    CHECK(all == "one\ntwo\n");
    std::signal(SIGPIPE, SIG_DFL);
}

TEST_CASE("wait_for_any wakes for a descriptor and for a child's end") {
    const StopSignalWatch watch;
    int ends[2];
    REQUIRE(::pipe2(ends, O_CLOEXEC) == 0);
    SpawnOptions o;
    o.stdout_fd = ends[1];
    ChildProcess writer({"sh", "-c", "echo x"}, o);
    ::close(ends[1]);
    ChildProcess sleeper({"sleep", "30"});
    ChildProcess* both[] = {&sleeper};
    wait_for_any(watch, both, ends[0]);  // the pipe
    char c = 0;
    CHECK(::read(ends[0], &c, 1) == 1);
    CHECK(c == 'x');
    ::close(ends[0]);
    ChildProcess* w[] = {&writer, &sleeper};
    while (!writer.finished()) wait_for_any(watch, w);
    CHECK(writer.status().ok());
    CHECK_FALSE(sleeper.finished());
}

TEST_CASE("a child still running when its owner goes is stopped and waited for") {
    pid_t pid = -1;
    const auto start = std::chrono::steady_clock::now();
    {
        ChildProcess sleeper({"sleep", "30"});
        pid = sleeper.pid();
    }
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
    CHECK(::kill(pid, 0) != 0);  // (gone and reaped: no zombie left)
}

TEST_CASE("a stop signal becomes StopSignal, and the scratch directory goes with the stack") {
    std::string path;
    int caught = 0;
    try {
        const StopSignalWatch watch;
        TempDir dir("warpdp-test");
        path = dir.path();
        std::ofstream(dir.file("f")) << "x";
        ChildProcess sleeper({"sleep", "30"});
        ::raise(SIGUSR1);
        ChildProcess* live[] = {&sleeper};
        wait_for_any(watch, live);
    } catch (const StopSignal& s) {
        caught = s.signal;
    }
    CHECK(caught == SIGUSR1);
    CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("stderr to a file of its own; a file that cannot be opened is a start that fails") {
    TempDir dir("warpdp-test");
    const StopSignalWatch watch;
    SpawnOptions o;
    o.stdout_path = dir.file("out");
    o.stderr_path = dir.file("err");
    ChildProcess c({"sh", "-c", "echo one; echo two >&2"}, o);
    CHECK(c.wait(watch).ok());
    std::ifstream out(dir.file("out")), err(dir.file("err"));
    CHECK(std::string((std::istreambuf_iterator<char>(out)), {}) == "one\n");
    CHECK(std::string((std::istreambuf_iterator<char>(err)), {}) == "two\n");
    o.stdout_path = dir.file("nodir/out");
    CHECK_THROWS_WITH_AS(ChildProcess({"true"}, o), "cannot start true: No such file or directory", ResourceError);
}

namespace {
// True once `pid` is gone (or a zombie nobody of ours will reap), polling for up to `seconds`.
bool gone_within(pid_t pid, int seconds) {
    for (int i = 0; i < seconds * 100; ++i) {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string text((std::istreambuf_iterator<char>(stat)), {});
        const size_t paren = text.rfind(')');
        if (!stat || paren == std::string::npos || text.compare(paren, 4, ") Z ") == 0) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}
}  // namespace

TEST_CASE("a child dies with its parent, even one killed outright") {
    int ends[2];
    REQUIRE(::pipe(ends) == 0);
    const pid_t parent = ::fork();
    REQUIRE(parent >= 0);
    if (parent == 0) {  // (a parent of its own, which then waits to be killed)
        ::close(ends[0]);
        pid_t pid = -1;
        try {
            ChildProcess sleeper({"sleep", "60"});
            pid = sleeper.pid();
            sleeper.release();
            [[maybe_unused]] const ssize_t n = ::write(ends[1], &pid, sizeof pid);
        } catch (...) {
        }
        ::pause();
        ::_exit(0);
    }
    ::close(ends[1]);
    pid_t child = -1;
    REQUIRE(::read(ends[0], &child, sizeof child) == sizeof child);
    ::close(ends[0]);
    CHECK(::kill(child, 0) == 0);
    ::kill(parent, SIGKILL);
    int wstatus = 0;
    ::waitpid(parent, &wstatus, 0);
    CHECK(gone_within(child, 10));
}

TEST_CASE("the scratch directory names its owner; a later run removes it once the owner is gone") {
    const std::string root =  // (a private $TMPDIR)
        (std::filesystem::temp_directory_path() / ("warpdp-stale-test-" + std::to_string(::getpid()))).string();
    std::filesystem::create_directory(root);
    const char* old = std::getenv("TMPDIR");
    const std::string saved = old ? old : "";
    ::setenv("TMPDIR", root.c_str(), 1);
    {
        TempDir live("warpdp-stale");
        const std::string name = std::filesystem::path(live.path()).filename().string();
        const std::string own = "warpdp-stale." + std::to_string(::getpid()) + ".";
        REQUIRE(name.compare(0, own.size(), own) == 0);
        // A process that has ended: its pid in a copy of the name.
        const pid_t dead = ::fork();
        if (dead == 0) ::_exit(0);
        ::waitpid(dead, nullptr, 0);
        const std::string stale =
            root + "/warpdp-stale." + std::to_string(dead) + name.substr(own.size() - 1);
        std::filesystem::create_directories(stale + "/sub");
        std::ofstream(stale + "/sub/f") << "x";
        const std::string other = root + "/warpdp-other." + std::to_string(dead) + name.substr(own.size() - 1);
        std::filesystem::create_directory(other);
        const std::string elsewhere = root + "/warpdp-stale." + std::to_string(dead) + ".0000000000000000.abcdef";
        std::filesystem::create_directory(elsewhere);  // (made on another host or in another PID namespace)
        CHECK(remove_stale_temp_dirs("warpdp-stale").empty());
        CHECK_FALSE(std::filesystem::exists(stale));
        CHECK(std::filesystem::exists(live.path()));
        CHECK(std::filesystem::exists(other));
        CHECK(std::filesystem::exists(elsewhere));
    }
    if (old) ::setenv("TMPDIR", saved.c_str(), 1);
    else ::unsetenv("TMPDIR");
    std::filesystem::remove_all(root);
}
