#include "core/gzip_stream.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "core/errors.hpp"

namespace warpdp {
namespace {

constexpr size_t kInputBytes = size_t{256} << 10;
constexpr int kGzipOnly = 15 + 16;  // windowBits: largest window, gzip wrapper (zlib checks CRC and length)

}  // namespace

struct GzipStream::Zlib {
    z_stream s{};
    Zlib() {
        if (inflateInit2(&s, kGzipOnly) != Z_OK) throw ResourceError("cannot start zlib's inflate (out of memory)");
    }
    ~Zlib() { inflateEnd(&s); }
    Zlib(const Zlib&) = delete;
    Zlib& operator=(const Zlib&) = delete;
};

GzipStream::GzipStream(Pull pull) : z_(std::make_unique<Zlib>()), pull_(std::move(pull)), in_(kInputBytes) {}

GzipStream::~GzipStream() = default;

void GzipStream::fail(std::string reason) {
    if (reason_.empty()) reason_ = std::move(reason);
}

bool GzipStream::refill() {
    if (input_ended_) return false;
    errno = 0;
    const std::ptrdiff_t got = pull_(in_.data(), in_.size());
    if (got < 0) {
        const int e = errno;
        fail(std::string("read error: ") + (e != 0 ? std::strerror(e) : "unknown"));
        return false;
    }
    if (got == 0) {
        input_ended_ = true;
        return false;
    }
    z_->s.next_in = in_.data();
    z_->s.avail_in = static_cast<uInt>(got);
    return true;
}

// After a member's trailer: another member, the end of the input, or zero
// bytes up to the end (gzip's padding); anything else is refused.
GzipStream::Between GzipStream::after_member() {
    z_stream& s = z_->s;
    bool padding = false;
    for (;;) {
        if (s.avail_in == 0 && !refill()) return reason_.empty() ? Between::end : Between::failed;
        if (!padding && s.next_in[0] != 0) {
            if (s.next_in[0] == 0x1f) return Between::another_member;  // zlib checks the rest of its header
            fail("unexpected data after the end of the gzip data (neither another gzip member nor zero padding)");
            return Between::failed;
        }
        padding = true;
        Bytef* const end = s.next_in + s.avail_in;
        if (std::find_if(s.next_in, end, [](Bytef b) { return b != 0; }) != end) {
            fail("unexpected data after the zero padding that ends the gzip data");
            return Between::failed;
        }
        s.next_in = end;
        s.avail_in = 0;
    }
}

std::ptrdiff_t GzipStream::read(char* dst, size_t n) {
    if (!reason_.empty()) return -1;
    if (done_ || n == 0) return 0;
    z_stream& s = z_->s;
    const size_t want = std::min<size_t>(n, UINT_MAX);
    s.next_out = reinterpret_cast<Bytef*>(dst);
    s.avail_out = static_cast<uInt>(want);
    while (s.avail_out == want && reason_.empty()) {
        if (!in_member_) {
            const Between next = after_member();
            if (next != Between::another_member) {
                done_ = next == Between::end;
                break;
            }
            inflateReset(&s);
            in_member_ = true;
        }
        if (s.avail_in == 0 && !refill()) {
            fail("truncated gzip file (unexpected end of compressed data)");
            break;
        }
        const int ret = inflate(&s, Z_NO_FLUSH);
        if (ret == Z_STREAM_END) in_member_ = false;
        else if (ret == Z_MEM_ERROR) throw ResourceError("out of memory while inflating gzip data");
        else if (ret != Z_OK && ret != Z_BUF_ERROR)
            fail(std::string("corrupt gzip data (") + (s.msg != nullptr ? s.msg : "zlib error " + std::to_string(ret)) + ")");
    }
    const size_t produced = want - s.avail_out;
    if (produced > 0) return static_cast<std::ptrdiff_t>(produced);
    return reason_.empty() ? 0 : -1;
}

}  // namespace warpdp
