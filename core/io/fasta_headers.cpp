// Counting '>' lines: memchr over the decompressed bytes.
#include "core/io/fasta_headers.hpp"

#include <cstring>
#include <vector>

#include "core/base/errors.hpp"
#include "core/io/byte_source.hpp"

namespace warpdp {

bool starts_with_fasta_header(const std::string& path) {
    try {
        ByteSource src(path);
        char c = 0;
        return src.read(&c, 1) == 1 && c == '>';
    } catch (const InputError&) {
        return false;
    }
}

uint64_t count_fasta_headers(const std::string& path, const std::function<void()>& between_reads) {
    ByteSource src(path);
    std::vector<char> buf(1 << 20);
    uint64_t count = 0;
    bool line_start = true;  // the next byte opens a line
    for (;;) {
        const std::ptrdiff_t n = src.read(buf.data(), buf.size());
        if (n <= 0) break;
        const char* p = buf.data();
        const char* end = p + n;
        if (line_start && *p == '>') ++count;
        while (const void* nl = std::memchr(p, '\n', static_cast<size_t>(end - p))) {
            p = static_cast<const char*>(nl) + 1;
            if (p == end) break;
            if (*p == '>') ++count;
        }
        line_start = end[-1] == '\n';
        if (between_reads) between_reads();
    }
    return count;
}

}  // namespace warpdp
