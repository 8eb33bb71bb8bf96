// Plumbing shared by the libFuzzer harnesses: require() (a broken invariant
// aborts, which libFuzzer reports as a finding) and input_path(), which puts
// the fuzzer's bytes behind a file name so the readers' real open/read path
// (htslib, gzip detection) is exercised without touching the disk.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace warpdp::fuzz {

inline void require(bool ok) {
    if (!ok) std::abort();
}

// Replaces the contents of this process's one memfd with data[0..size) and
// returns a path that opens it ("/proc/self/fd/N").
inline std::string input_path(const uint8_t* data, size_t size) {
    static const int fd = memfd_create("warpdp-fuzz", 0);
    require(fd >= 0);
    require(ftruncate(fd, 0) == 0);
    require(pwrite(fd, data, size, 0) == static_cast<ssize_t>(size));
    return "/proc/self/fd/" + std::to_string(fd);
}

}  // namespace warpdp::fuzz
