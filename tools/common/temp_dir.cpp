// TempDir: mkdtemp, and remove_all when its owner goes.
#include "tools/common/temp_dir.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "core/base/errors.hpp"

namespace warpdp {

TempDir::TempDir(const std::string& prefix) {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = (dir && *dir ? std::string(dir) : std::string("/tmp")) + "/" + prefix + ".XXXXXX";
    if (!::mkdtemp(pattern.data()))
        throw ResourceError("cannot make a temporary directory " + pattern + ": " + std::strerror(errno));
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ec;  // (nothing to report it to: the owner is going)
    std::filesystem::remove_all(path_, ec);
}

}  // namespace warpdp
