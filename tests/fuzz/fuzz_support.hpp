// Plumbing shared by the libFuzzer harnesses: require() (a broken invariant
// aborts, which libFuzzer reports as a finding), input_path(), which puts
// the fuzzer's bytes behind a file name so the readers' real open/read path
// (htslib, gzip detection) is exercised without touching the disk, and
// compress(), which makes gzip or bgzip of them: mutated compressed bytes
// rarely inflate, so the parsers behind the inflaters would otherwise only
// ever see the few corpus files that were compressed to begin with.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include <zlib.h>

#include "tests/support/zlib_deflate.hpp"

namespace warpdp::fuzz {

// (The builtins rather than std::source_location, which clang 14 with
// libstdc++ 12 lacks.)
inline void require(bool ok, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    if (ok) return;
    std::fprintf(stderr, "fuzz: requirement failed at %s:%d\n", file, line);
    std::abort();
}

// Two readings of the same input must agree; on a difference, both are
// shown (escaped, cut at 2,000 bytes) before the abort.
inline void require_equal(const std::string& a, const std::string& b, const char* file = __builtin_FILE(),
                          int line = __builtin_LINE()) {
    if (a == b) return;
    const auto show = [](const std::string& s) {
        std::string out;
        for (size_t i = 0; i < s.size() && i < 2000; ++i) {
            const auto c = static_cast<unsigned char>(s[i]);
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += (c >= 0x20 && c < 0x7f) || c == '\n' ? std::string(1, static_cast<char>(c)) : std::string(hex);
        }
        return out;
    };
    std::fprintf(stderr, "fuzz: readings differ\n--- first:\n%s\n--- second:\n%s\n", show(a).c_str(), show(b).c_str());
    require(false, file, line);
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

// The gzip magic: input that is compressed already.
inline bool gzip_magic(const uint8_t* data, size_t size) { return size >= 2 && data[0] == 0x1f && data[1] == 0x8b; }

namespace detail {

inline void put_le(std::string& s, uint32_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// One BGZF block: gzip with the "BC" extra field giving the block's size.
inline std::string bgzf_block(std::string_view in, int level) {
    const std::string body = test::zlib_deflate(in, level, -15);
    std::string b("\x1f\x8b\x08\x04\0\0\0\0\0\xff\x06\0BC\x02\0", 16);
    put_le(b, static_cast<uint32_t>(18 + body.size() + 8 - 1), 2);
    b += body;
    put_le(b, static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(in.data()), static_cast<uInt>(in.size()))), 4);
    put_le(b, static_cast<uint32_t>(in.size()), 4);
    require(b.size() <= 65536);
    return b;
}

}  // namespace detail

// `data` compressed as the tools meet it, in two members cut at `cut` (so
// that lines and records cross a member boundary; an empty member when cut
// is 0 or past the end): plain gzip members, which GzipStream (ISA-L)
// inflates, or BGZF blocks closed by the end-of-file marker, which htslib
// inflates. `level` 0 makes stored blocks, 1..9 deflated ones.
inline std::string compress(std::string_view data, size_t cut, int level, bool bgzf) {
    cut = cut < data.size() ? cut : data.size();
    const std::string_view parts[2] = {data.substr(0, cut), data.substr(cut)};
    std::string out;
    for (std::string_view part : parts) {
        if (!bgzf) {
            out += test::zlib_deflate(part, level, 15 + 16);
            continue;
        }
        constexpr size_t kBlock = 0xf000;  // input per block: bgzip's 0xff00, less deflate's worst growth
        do {
            out += detail::bgzf_block(part.substr(0, kBlock), level);
            part.remove_prefix(part.size() < kBlock ? part.size() : kBlock);
        } while (!part.empty());
    }
    // bgzip's end-of-file marker: an empty block, as bgzip writes it.
    if (bgzf) out += std::string("\x1f\x8b\x08\x04\0\0\0\0\0\xff\x06\0BC\x02\0\x1b\0\x03\0\0\0\0\0\0\0\0\0", 28);
    return out;
}

// Replaces the memfd's contents (input_path()) with `bytes`.
inline std::string input_path(const std::string& bytes) {
    return input_path(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

// The input compressed (compress(): the cut, level and format chosen from the
// input's own bytes) and written over the memfd, so read the plain input
// first; nullopt when the input already is gzip (compressing it again would
// test nothing the plain reading did not).
inline std::optional<std::string> compressed_input_path(const uint8_t* data, size_t size) {
    if (gzip_magic(data, size)) return std::nullopt;
    const unsigned h = size > 0 ? data[size / 2] : 0;
    return input_path(compress({reinterpret_cast<const char*>(data), size}, h * size / 255,
                               static_cast<int>(h % 3) * 3, (h & 8) != 0));
}

}  // namespace warpdp::fuzz
