// OutputFile: atomic file output and stdout with broken-pipe detection.
#include "core/io/output_file.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/errors.hpp"

namespace warpdp {

namespace {

// The temporary files of uncommitted outputs, for the stop-signal handler.
// A slot is claimed and released with atomics; the handler reads the
// published ones without a lock (unlink is async-signal-safe).
struct TempSlot {
    std::atomic<bool> claimed{false};
    std::atomic<bool> published{false};
    char path[4096];
};
std::array<TempSlot, 64> g_temps;

int publish_temporary(const std::string& path) {
    if (path.size() >= sizeof(TempSlot::path)) return -1;
    for (size_t i = 0; i < g_temps.size(); ++i) {
        bool free = false;
        if (!g_temps[i].claimed.compare_exchange_strong(free, true)) continue;
        std::memcpy(g_temps[i].path, path.c_str(), path.size() + 1);
        g_temps[i].published = true;
        return static_cast<int>(i);
    }
    return -1;  // more than 64 at once: that one is only removed on a normal exit
}

void withdraw_temporary(int slot) {
    if (slot < 0) return;
    g_temps[static_cast<size_t>(slot)].published = false;
    g_temps[static_cast<size_t>(slot)].claimed = false;
}

extern "C" void remove_temporaries_and_stop(int sig) {
    for (auto& t : g_temps)
        if (t.published.load()) ::unlink(t.path);
    std::signal(sig, SIG_DFL);
    ::raise(sig);
}

}  // namespace

void ignore_sigpipe() { std::signal(SIGPIPE, SIG_IGN); }

std::span<const int> stop_signals() noexcept {
    static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU};
    return kSignals;
}

void remove_temporaries_on_stop_signals() {
    for (int sig : stop_signals()) {
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;  // (nohup keeps SIGHUP ignored)
        struct sigaction act {};
        act.sa_handler = remove_temporaries_and_stop;
        sigemptyset(&act.sa_mask);
        ::sigaction(sig, &act, nullptr);
    }
}

void finish_stdout() {
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        const int err = errno;
        if (err == EPIPE) throw BrokenPipe();
        throw ResourceError(std::string("stdout: write failed: ") + std::strerror(err));
    }
    const int null_fd = ::open("/dev/null", O_WRONLY);
    if (null_fd < 0) return;  // stdout stays open: the reader only waits a little longer
    ::dup2(null_fd, STDOUT_FILENO);
    ::close(null_fd);
}

OutputFile::OutputFile(const std::string& path) : path_(path) {
    if (path.empty() || path == "-") {
        is_stdout_ = true;
        stream_ = stdout;
        return;
    }
    // Only a regular file (or a new path) is replaced atomically. A device,
    // FIFO, socket or symlink (/dev/null, /dev/stdout, a named pipe) is written
    // in place: renaming a temporary over it would replace the node itself.
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) throw ResourceError(path + ": cannot write output: is a directory");
        stream_ = std::fopen(path.c_str(), "w");
        if (!stream_) throw ResourceError(path + ": cannot open output file: " + std::strerror(errno));
        in_place_ = true;
        return;
    }
    tmp_path_ = path + ".tmp.XXXXXX";
    const int fd = ::mkstemp(tmp_path_.data());
    if (fd < 0) throw ResourceError(path + ": cannot create output file: " + std::strerror(errno));
    stream_ = ::fdopen(fd, "w");
    if (!stream_) {
        ::close(fd);
        std::remove(tmp_path_.c_str());
        throw ResourceError(path + ": cannot open output file: " + std::strerror(errno));
    }
    std::setvbuf(stream_, nullptr, _IOFBF, 1 << 20);
    tmp_slot_ = publish_temporary(tmp_path_);
}

OutputFile::~OutputFile() {
    if (is_stdout_ || committed_) return;
    std::fclose(stream_);
    if (in_place_) return;
    std::remove(tmp_path_.c_str());  // nothing half-written is left behind
    withdraw_temporary(tmp_slot_);
}

void OutputFile::check_stream() {
    if (!std::ferror(stream_)) return;
    const int err = errno;
    if (err == EPIPE) throw BrokenPipe();
    throw ResourceError((is_stdout_ ? std::string("stdout") : path_) + ": write failed: " + std::strerror(err));
}

void OutputFile::write(std::string_view text) {
    if (std::fwrite(text.data(), 1, text.size(), stream_) != text.size()) check_stream();
}

void OutputFile::flush() {
    if (std::fflush(stream_) != 0) check_stream();
    check_stream();
}

void OutputFile::commit() {
    flush();
    if (is_stdout_) return;
    const bool ok = std::fclose(stream_) == 0;
    committed_ = true;
    if (!ok) {
        const int err = errno;
        if (!in_place_) std::remove(tmp_path_.c_str());
        withdraw_temporary(tmp_slot_);
        if (err == EPIPE) throw BrokenPipe();
        throw ResourceError(path_ + ": write failed: " + std::strerror(err));
    }
    if (in_place_) return;
    std::error_code ec;
    std::filesystem::permissions(tmp_path_, std::filesystem::perms(0644), ec);
    const bool renamed = std::rename(tmp_path_.c_str(), path_.c_str()) == 0;
    const int err = errno;
    if (!renamed) std::remove(tmp_path_.c_str());
    withdraw_temporary(tmp_slot_);
    if (!renamed) throw ResourceError(path_ + ": cannot rename output into place: " + std::strerror(err));
}

}  // namespace warpdp
