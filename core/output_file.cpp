// OutputFile: atomic file output and stdout with broken-pipe detection.
#include "core/output_file.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/errors.hpp"

namespace warpdp {

void ignore_sigpipe() { std::signal(SIGPIPE, SIG_IGN); }

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
}

OutputFile::~OutputFile() {
    if (is_stdout_ || committed_) return;
    std::fclose(stream_);
    if (in_place_) return;
    std::remove(tmp_path_.c_str());  // nothing half-written is left behind
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
        if (err == EPIPE) throw BrokenPipe();
        throw ResourceError(path_ + ": write failed: " + std::strerror(err));
    }
    if (in_place_) return;
    std::error_code ec;
    std::filesystem::permissions(tmp_path_, std::filesystem::perms(0644), ec);
    if (std::rename(tmp_path_.c_str(), path_.c_str()) != 0) {
        const int err = errno;
        std::remove(tmp_path_.c_str());
        throw ResourceError(path_ + ": cannot rename output into place: " + std::strerror(err));
    }
}

}  // namespace warpdp
