// Child processes: started, their ends told apart (exit codes, signals),
// waited for beside a descriptor, stopped when their owner goes; stop
// signals turned into StopSignal; the scratch directory removed.
#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
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
