// Gzip members read by GzipStream: headers parsed here, data inflated by
// ISA-L's igzip, each member's CRC-32 and length checked.
#include "core/io/gzip_stream.hpp"

#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "core/base/errors.hpp"

namespace warpdp {
namespace {

constexpr size_t kInputBytes = size_t{256} << 10;

std::string corruption(int ret) {
    switch (ret) {
        case ISAL_INCORRECT_CHECKSUM: return "corrupt gzip data (CRC-32 or length check failed)";
        case ISAL_INVALID_BLOCK: return "corrupt gzip data (invalid deflate block)";
        case ISAL_INVALID_SYMBOL: return "corrupt gzip data (invalid deflate code)";
        case ISAL_INVALID_LOOKBACK: return "corrupt gzip data (invalid distance too far back)";
        default: return "corrupt gzip data (igzip error " + std::to_string(ret) + ")";
    }
}

}  // namespace

struct GzipStream::Inflater {
    inflate_state s{};  // (about 30 KB: on the heap with its owner)
    // After a member's header: its deflate data, then the trailer igzip
    // checks (CRC-32 and length modulo 2^32). Each member starts afresh.
    void start_data() {
        uint8_t* const in = s.next_in;
        const uint32_t avail = s.avail_in;
        isal_inflate_init(&s);
        s.crc_flag = ISAL_GZIP_NO_HDR_VER;
        s.next_in = in;
        s.avail_in = avail;
    }
    bool member_ended() const noexcept { return s.block_state == ISAL_BLOCK_FINISH; }
};

GzipStream::GzipStream(Pull pull) : inflater_(std::make_unique<Inflater>()), pull_(std::move(pull)), in_(kInputBytes) {}

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
    inflater_->s.next_in = in_.data();
    inflater_->s.avail_in = static_cast<uint32_t>(got);
    return true;
}

bool GzipStream::next_byte(uint8_t& b) {
    inflate_state& s = inflater_->s;
    if (s.avail_in == 0 && !refill()) return false;
    b = *s.next_in++;
    --s.avail_in;
    return true;
}

// A member's header (RFC 1952 2.3), as `gzip -d` checks it: the magic
// bytes, deflate, no reserved flag, and the header's CRC when it has one.
// The optional fields (extra, name, comment) are skipped.
bool GzipStream::read_header() {
    enum : uint8_t { kHcrc = 2, kExtra = 4, kName = 8, kComment = 16, kReserved = 0xe0 };
    uLong crc = crc32(0, nullptr, 0);
    const auto take = [&](uint8_t& b) {
        if (!next_byte(b)) {
            fail("truncated gzip file (unexpected end of compressed data)");
            return false;
        }
        crc = crc32(crc, &b, 1);
        return true;
    };
    const auto refuse = [&](const char* why) {
        fail(std::string("corrupt gzip data (") + why + ")");
        return false;
    };
    uint8_t fixed[10];
    for (uint8_t& b : fixed)
        if (!take(b)) return false;
    if (fixed[0] != 0x1f || fixed[1] != 0x8b) return refuse("invalid gzip header");
    if (fixed[2] != 8) return refuse("unknown compression method");
    const uint8_t flags = fixed[3];
    if ((flags & kReserved) != 0) return refuse("unknown header flags set");
    uint8_t b = 0;
    if ((flags & kExtra) != 0) {
        uint8_t len[2];
        if (!take(len[0]) || !take(len[1])) return false;
        for (unsigned left = len[0] | (len[1] << 8); left > 0; --left)
            if (!take(b)) return false;
    }
    for (const uint8_t field : {kName, kComment}) {
        if ((flags & field) == 0) continue;
        do {
            if (!take(b)) return false;
        } while (b != 0);
    }
    if ((flags & kHcrc) != 0) {
        const uLong expected = crc & 0xffff;
        uint8_t lo = 0, hi = 0;
        if (!take(lo) || !take(hi)) return false;
        if (static_cast<uLong>(lo | (hi << 8)) != expected) return refuse("header CRC mismatch");
    }
    return true;
}

// After a member's trailer: another member, the end of the input, or zero
// bytes up to the end (gzip's padding); anything else is refused.
GzipStream::Between GzipStream::after_member() {
    inflate_state& s = inflater_->s;
    bool padding = false;
    for (;;) {
        if (s.avail_in == 0 && !refill()) return reason_.empty() ? Between::end : Between::failed;
        if (!padding && s.next_in[0] != 0) {
            if (s.next_in[0] == 0x1f) return Between::another_member;  // read_header() checks the rest
            fail("unexpected data after the end of the gzip data (neither another gzip member nor zero padding)");
            return Between::failed;
        }
        padding = true;
        uint8_t* const end = s.next_in + s.avail_in;
        if (std::find_if(s.next_in, end, [](uint8_t b) { return b != 0; }) != end) {
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
    inflate_state& s = inflater_->s;
    const size_t want = std::min<size_t>(n, UINT32_MAX);
    s.next_out = reinterpret_cast<uint8_t*>(dst);
    s.avail_out = static_cast<uint32_t>(want);
    while (s.avail_out == want && reason_.empty()) {
        if (!in_member_) {
            const Between next = after_member();
            if (next != Between::another_member) {
                done_ = next == Between::end;
                break;
            }
            in_member_ = in_header_ = true;
        }
        if (in_header_) {
            if (!read_header()) break;
            inflater_->start_data();
            s.next_out = reinterpret_cast<uint8_t*>(dst);  // (nothing is written yet in this call)
            s.avail_out = static_cast<uint32_t>(want);
            in_header_ = false;
        }
        if (s.avail_in == 0 && !refill()) {
            fail("truncated gzip file (unexpected end of compressed data)");
            break;
        }
        const int ret = isal_inflate(&s);
        if (ret != ISAL_DECOMP_OK) fail(corruption(ret));
        else if (inflater_->member_ended()) in_member_ = false;
    }
    const size_t produced = want - s.avail_out;
    if (produced > 0) return static_cast<std::ptrdiff_t>(produced);
    return reason_.empty() ? 0 : -1;
}

}  // namespace warpdp
