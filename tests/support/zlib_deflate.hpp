// One deflate stream made by zlib, for the tests and fuzz harnesses that
// build compressed input (gzip members, raw deflate data, BGZF blocks) to
// check the readers against. Throws std::runtime_error if zlib refuses,
// which in a test or harness is a bug of the test itself.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include <zlib.h>

namespace warpdp::test {

// `in` deflated at `level` (0 stores): window_bits 15 + 16 gives a gzip
// member, -15 raw deflate data.
inline std::string zlib_deflate(std::string_view in, int level, int window_bits) {
    z_stream z{};
    if (deflateInit2(&z, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("zlib_deflate: deflateInit2 failed");
    std::string out(deflateBound(&z, static_cast<uLong>(in.size())) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, Z_FINISH);
    deflateEnd(&z);
    if (rc != Z_STREAM_END) throw std::runtime_error("zlib_deflate: deflate did not finish");
    out.resize(z.total_out);
    return out;
}

}  // namespace warpdp::test
