// TempDir: mkdtemp with the owner in the name, and remove_all when its owner
// goes (or when a later run finds the owner gone).
#include "tools/common/temp_dir.hpp"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <sys/stat.h>
#include <unistd.h>

#include "core/base/errors.hpp"

namespace warpdp {

namespace {

// This host and PID namespace, as 16 hex digits (FNV-1a of the host name and
// the namespace's inode): a PID means this process only where both agree.
std::string host_tag() {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    std::string key = host;
    struct stat st {};
    if (::stat("/proc/self/ns/pid", &st) == 0) key += "/" + std::to_string(st.st_ino);
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : key) h = (h ^ c) * 1099511628211ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return hex;
}

bool all_digits(const std::string& s) {
    return !s.empty() && s.size() <= 10 && s.find_first_not_of("0123456789") == std::string::npos;
}

// $TMPDIR, else /tmp.
std::string temp_root() {
    const char* dir = std::getenv("TMPDIR");
    return dir && *dir ? std::string(dir) : std::string("/tmp");
}

}  // namespace

TempDir::TempDir(const std::string& prefix) {
    std::string pattern =
        temp_root() + "/" + prefix + "." + std::to_string(::getpid()) + "." + host_tag() + ".XXXXXX";
    if (!::mkdtemp(pattern.data()))
        throw ResourceError("cannot make a temporary directory " + pattern + ": " + std::strerror(errno));
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ec;  // (nothing to report it to: the owner is going)
    std::filesystem::remove_all(path_, ec);
}

std::vector<std::string> remove_stale_temp_dirs(const std::string& prefix) {
    std::vector<std::string> kept;
    const std::string start = prefix + ".";
    const std::string tag = "." + host_tag() + ".";
    std::error_code ec;
    std::filesystem::directory_iterator it(temp_root(), ec);
    for (; !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        // PREFIX.PID.TAG.XXXXXX
        if (name.compare(0, start.size(), start) != 0) continue;
        const size_t dot = name.find('.', start.size());
        if (dot == std::string::npos || name.compare(dot, tag.size(), tag) != 0 ||
            name.size() != dot + tag.size() + 6)
            continue;
        const std::string pid_text = name.substr(start.size(), dot - start.size());
        if (!all_digits(pid_text)) continue;
        const long pid = std::strtol(pid_text.c_str(), nullptr, 10);
        struct stat st {};
        const std::string path = it->path().string();
        if (pid <= 0 || ::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) continue;
        if (pid == ::getpid() || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
        std::error_code rm;
        std::filesystem::remove_all(path, rm);
        if (rm) kept.push_back(path + ": " + rm.message());
    }
    return kept;
}

}  // namespace warpdp
