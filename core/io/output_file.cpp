// OutputFile: atomic file output and stdout with broken-pipe detection.
#include "core/io/output_file.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <htslib/bgzf.h>

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

// A name ending in ".gz" is written compressed, as BGZF (gzip that htslib
// can also index and read in parallel): a FILE whose writes go through a
// BGZF stream on the descriptor, so the rest of OutputFile is unchanged.
ssize_t bgzf_cookie_write(void* cookie, const char* buf, size_t n) {
    if (bgzf_write(static_cast<BGZF*>(cookie), buf, n) < 0) {
        if (errno == 0) errno = EIO;
        return -1;
    }
    return static_cast<ssize_t>(n);
}
int bgzf_cookie_close(void* cookie) {
    errno = 0;
    if (bgzf_close(static_cast<BGZF*>(cookie)) == 0) return 0;
    if (errno == 0) errno = EIO;
    return -1;
}
bool names_gzip(const std::string& path) { return path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0; }
// fd: open for writing; owned by the result (closed on failure too).
std::FILE* open_stream(int fd, bool gzip) {
    if (!gzip) {
        std::FILE* f = ::fdopen(fd, "w");
        if (!f) ::close(fd);
        return f;
    }
    BGZF* z = bgzf_dopen(fd, "w");
    if (!z) {
        ::close(fd);
        return nullptr;
    }
    cookie_io_functions_t io{};
    io.write = bgzf_cookie_write;
    io.close = bgzf_cookie_close;
    std::FILE* f = ::fopencookie(z, "w", io);
    if (!f) bgzf_close(z);
    return f;
}

// File outputs made and not yet committed or abandoned: while any is open, a
// reader leaving stdout does not end the run (output_file.hpp).
std::atomic<int> g_open_files{0};

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

std::string follow_symlinks(const std::string& path) {
    std::string p = path;
    for (int hop = 0; hop < 40; ++hop) {  // (Linux's own limit)
        struct stat st {};
        if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
        std::string link(4096, '\0');
        const ssize_t n = ::readlink(p.c_str(), link.data(), link.size());
        if (n < 0) throw ResourceError(path + ": cannot read the symbolic link: " + std::strerror(errno));
        link.resize(static_cast<size_t>(n));
        const size_t slash = p.rfind('/');
        p = link[0] == '/' || slash == std::string::npos ? link : p.substr(0, slash + 1) + link;
    }
    throw ResourceError(path + ": too many levels of symbolic links");
}

unsigned new_file_mode() {
    // /proc tells the umask without changing it; umask() itself can only be
    // read by setting it, which would race with files other threads create.
    if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
        char line[256];
        unsigned mask = 0;
        bool found = false;
        while (!found && std::fgets(line, sizeof line, f)) found = std::sscanf(line, "Umask: %o", &mask) == 1;
        std::fclose(f);
        if (found) return 0666u & ~mask;
    }
    const mode_t mask = ::umask(022);
    ::umask(mask);
    return 0666u & ~static_cast<unsigned>(mask);
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
    target_ = follow_symlinks(path);
    struct stat st {};
    const bool exists = ::stat(target_.c_str(), &st) == 0;
    // A device, FIFO or socket (/dev/null, /dev/stdout, a named pipe) is
    // written in place: renaming a temporary over it would replace the node.
    if (exists && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) throw ResourceError(path + ": cannot write output: is a directory");
        const int fd = ::open(target_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
        stream_ = fd < 0 ? nullptr : open_stream(fd, names_gzip(path));
        if (!stream_) throw ResourceError(path + ": cannot open output file: " + std::strerror(errno));
        in_place_ = true;
        counted_ = true;
        ++g_open_files;
        return;
    }
    // The rename would replace a file we may not write; refuse as open() would.
    if (exists && ::access(target_.c_str(), W_OK) != 0)
        throw ResourceError(path + ": cannot open output file: " + std::strerror(errno));
    const unsigned mode = exists ? static_cast<unsigned>(st.st_mode) & 07777u : new_file_mode();
    tmp_path_ = target_ + ".tmp.XXXXXX";
    const int fd = ::mkstemp(tmp_path_.data());
    if (fd < 0) throw ResourceError(path + ": cannot create output file: " + std::strerror(errno));
    ::fchmod(fd, static_cast<mode_t>(mode));  // (mkstemp made it 0600; a failure only leaves it private)
    stream_ = open_stream(fd, names_gzip(path));
    if (!stream_) {
        std::remove(tmp_path_.c_str());
        throw ResourceError(path + ": cannot open output file: " + std::strerror(errno));
    }
    std::setvbuf(stream_, nullptr, _IOFBF, 1 << 20);
    tmp_slot_ = publish_temporary(tmp_path_);
    counted_ = true;
    ++g_open_files;
}

OutputFile::~OutputFile() {
    if (counted_) --g_open_files;
    if (is_stdout_ || committed_) return;
    std::fclose(stream_);
    if (in_place_) return;
    std::remove(tmp_path_.c_str());  // nothing half-written is left behind
    withdraw_temporary(tmp_slot_);
}

void OutputFile::check_stream() {
    if (!std::ferror(stream_)) return;
    const int err = errno;
    if (err == EPIPE && is_stdout_ && g_open_files.load() > 0) {
        reader_gone_ = true;  // the files still open are worth finishing
        std::clearerr(stream_);
        return;
    }
    if (err == EPIPE) throw BrokenPipe();
    throw ResourceError((is_stdout_ ? std::string("stdout") : path_) + ": write failed: " + std::strerror(err));
}

void OutputFile::write(std::string_view text) {
    if (reader_gone_) return;
    if (std::fwrite(text.data(), 1, text.size(), stream_) != text.size()) check_stream();
}

void OutputFile::flush() {
    if (reader_gone_) return;
    if (std::fflush(stream_) != 0) check_stream();
    check_stream();
}

void OutputFile::commit() {
    flush();
    if (is_stdout_) return;
    const bool ok = std::fclose(stream_) == 0;
    committed_ = true;
    if (counted_) --g_open_files;
    counted_ = false;
    if (!ok) {
        const int err = errno;
        if (!in_place_) std::remove(tmp_path_.c_str());
        withdraw_temporary(tmp_slot_);
        if (err == EPIPE) throw BrokenPipe();
        throw ResourceError(path_ + ": write failed: " + std::strerror(err));
    }
    if (in_place_) return;
    const bool renamed = std::rename(tmp_path_.c_str(), target_.c_str()) == 0;
    const int err = errno;
    if (!renamed) std::remove(tmp_path_.c_str());
    withdraw_temporary(tmp_slot_);
    if (!renamed) throw ResourceError(path_ + ": cannot rename output into place: " + std::strerror(err));
}

}  // namespace warpdp
