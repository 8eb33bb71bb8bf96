// GzipStream: gzip files read as `gzip -d` reads them. Every member is
// inflated and checked; zero padding after the last member is accepted;
// anything else there, any cut and any damage is an error, never a
// different text. Inputs are fresh random texts, compressed here with zlib,
// and fed in pieces of every awkward size (one byte at a time included), so
// member boundaries and headers also fall across reads.
#include <doctest/doctest.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "core/io/gzip_stream.hpp"
#include "test_support.hpp"
#include "zlib_deflate.hpp"

using namespace warpdp;
using warpdp::test::uniform;

namespace {

std::string gzip(const std::string& text, int level) { return test::zlib_deflate(text, level, 15 + 16); }

// Text of mixed compressibility: sequence-like runs and random bytes.
std::string random_payload(size_t n) {
    std::string s = warpdp::test::random_text(">ACDEFGHIKLMNPQRSTVWY\n", n);
    for (size_t i = 0; i < n / 50; ++i) s[static_cast<size_t>(uniform(0, static_cast<int>(n) - 1))] = static_cast<char>(uniform(0, 255));
    return s;
}

struct Outcome {
    std::string text;    // every byte read before the end or the failure
    std::string reason;  // empty when the data ended cleanly
};

// Reads `compressed` through a GzipStream, handing it `pull_piece` bytes per
// pull and asking for `read_piece` bytes per read.
Outcome inflate_all(const std::string& compressed, size_t pull_piece, size_t read_piece) {
    size_t at = 0;
    GzipStream z([&](uint8_t* dst, size_t n) -> std::ptrdiff_t {
        const size_t k = std::min({n, pull_piece, compressed.size() - at});
        std::memcpy(dst, compressed.data() + at, k);
        at += k;
        return static_cast<std::ptrdiff_t>(k);
    });
    Outcome o;
    std::string buf(read_piece, '\0');
    for (;;) {
        const std::ptrdiff_t got = z.read(buf.data(), buf.size());
        if (got == 0) return o;
        if (got < 0) {
            o.reason = z.failure_reason();
            REQUIRE(!o.reason.empty());
            CHECK(z.read(buf.data(), buf.size()) == -1);  // a failure stays a failure
            return o;
        }
        o.text.append(buf.data(), static_cast<size_t>(got));
    }
}

size_t any_piece() {
    const size_t pieces[] = {1, 2, 3, 17, 4096, 65536, size_t{1} << 20};
    return pieces[uniform(0, 6)];
}

}  // namespace

TEST_CASE("one member, any size and level, any read and pull sizes: the text itself") {
    for (size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{100}, size_t{65535}, size_t{65537}, size_t{700000}}) {
        for (int level : {0, 1, 6, 9}) {
            const std::string text = random_payload(n);
            const size_t pull = any_piece(), read = any_piece();
            CAPTURE(n);
            CAPTURE(level);
            CAPTURE(pull);
            CAPTURE(read);
            const Outcome o = inflate_all(gzip(text, level), pull, read);
            CHECK(o.reason.empty());
            CHECK(o.text == text);
        }
    }
}

TEST_CASE("members one after another, empty ones too, read as one text (as gzip -d does)") {
    for (int round = 0; round < 20; ++round) {
        std::string text, compressed;
        const int members = uniform(2, 6);
        for (int m = 0; m < members; ++m) {
            const std::string part = uniform(0, 3) == 0 ? std::string() : random_payload(static_cast<size_t>(uniform(1, 90000)));
            text += part;
            compressed += gzip(part, uniform(0, 9));
        }
        const size_t pull = any_piece();
        CAPTURE(pull);
        const Outcome o = inflate_all(compressed, pull, any_piece());
        CHECK(o.reason.empty());
        CHECK(o.text == text);
    }
}

TEST_CASE("zero bytes after the last member are padding: accepted, as gzip accepts them") {
    for (size_t zeros : {size_t{1}, size_t{2}, size_t{511}, size_t{300000}}) {
        const std::string text = random_payload(static_cast<size_t>(uniform(0, 5000)));
        const std::string compressed = gzip(text, 6) + gzip(text, 1) + std::string(zeros, '\0');
        const size_t pull = any_piece();
        CAPTURE(zeros);
        CAPTURE(pull);
        const Outcome o = inflate_all(compressed, pull, any_piece());
        CHECK(o.reason.empty());
        CHECK(o.text == text + text);
    }
}

TEST_CASE("anything else after the last member is refused, after the text before it") {
    const std::string text = random_payload(3000);
    const std::string member = gzip(text, 6);
    struct Tail {
        std::string bytes, reason;
    };
    const Tail tails[] = {
        {"junk\n", "unexpected data after the end of the gzip data (neither another gzip member nor zero padding)"},
        {std::string(100, '\0') + "x", "unexpected data after the zero padding that ends the gzip data"},
        {std::string(3, '\0') + member, "unexpected data after the zero padding that ends the gzip data"},
        {"\x1f", "truncated gzip file (unexpected end of compressed data)"},
        {std::string("\x1f\x8c\x08\x00", 4) + std::string(20, 'x'), "corrupt gzip data (invalid gzip header)"},
    };
    for (const Tail& t : tails) {
        const size_t pull = any_piece();
        CAPTURE(t.reason);
        CAPTURE(pull);
        const Outcome o = inflate_all(member + t.bytes, pull, any_piece());
        CHECK(o.reason == t.reason);
        CHECK(o.text == text.substr(0, o.text.size()));
    }
}

TEST_CASE("a member cut anywhere, trailer included, is a truncated file; the bytes read before are the text's") {
    const std::string text = random_payload(static_cast<size_t>(uniform(1000, 3000)));
    const std::string compressed = gzip(text, uniform(1, 9));
    for (size_t cut = 0; cut < compressed.size(); ++cut) {
        CAPTURE(cut);
        const Outcome o = inflate_all(compressed.substr(0, cut), cut % 2 == 0 ? 1 : 4096, 512);
        CHECK(o.reason == "truncated gzip file (unexpected end of compressed data)");
        CHECK(o.text == text.substr(0, o.text.size()));
    }
}

TEST_CASE("one damaged byte anywhere gives the same text or an error, never another text") {
    const std::string text = random_payload(static_cast<size_t>(uniform(500, 2000)));
    const std::string compressed = gzip(text, uniform(1, 9));
    int same = 0, refused = 0;
    for (size_t at = 0; at < compressed.size(); ++at) {
        for (uint8_t flip : {uint8_t{0x01}, uint8_t{0x80}, static_cast<uint8_t>(uniform(1, 255))}) {
            std::string damaged = compressed;
            damaged[at] = static_cast<char>(static_cast<uint8_t>(damaged[at]) ^ flip);
            const Outcome o = inflate_all(damaged, 4096, 4096);
            CAPTURE(at);
            CAPTURE(static_cast<int>(flip));
            if (o.reason.empty()) {
                CHECK(o.text == text);
                ++same;
            } else {
                ++refused;
            }
        }
    }
    // The header's time, flags of no consequence and OS byte may change
    // unnoticed; the data and the trailer may not.
    CHECK(same <= 3 * 8);
    CHECK(refused > 0);
}

TEST_CASE("a read error of the input is reported with its errno") {
    const std::string compressed = gzip(random_payload(100000), 0);
    size_t at = 0;
    GzipStream z([&](uint8_t* dst, size_t n) -> std::ptrdiff_t {
        if (at > 1000) {
            errno = EIO;
            return -1;
        }
        const size_t k = std::min<size_t>(n, 600);
        std::memcpy(dst, compressed.data() + at, k);
        at += k;
        return static_cast<std::ptrdiff_t>(k);
    });
    std::string buf(1 << 16, '\0');
    std::ptrdiff_t got = 0;
    while ((got = z.read(buf.data(), buf.size())) > 0) {
    }
    CHECK(got == -1);
    CHECK(z.failure_reason() == std::string("read error: ") + std::strerror(EIO));
}

namespace {

// A member with every optional header field (RFC 1952 2.3: FEXTRA, FNAME,
// FCOMMENT, FHCRC), which `gzip -d` reads; zlib's deflate never writes them.
std::string member_with_every_header_field(const std::string& text) {
    std::string header("\x1f\x8b\x08\x1e\x01\x02\x03\x04\x00\x03", 10);
    header += std::string("\x05\x00" "AB\x01\x00z", 6);  // XLEN = 5: one subfield "AB" of 1 byte, and one more byte
    header += std::string("reads.fa") + '\0' + "a comment" + '\0';
    const uLong hcrc = crc32(0, reinterpret_cast<const Bytef*>(header.data()), static_cast<uInt>(header.size()));
    header += static_cast<char>(hcrc & 0xff);
    header += static_cast<char>((hcrc >> 8) & 0xff);
    const std::string body = test::zlib_deflate(text, 6, -15);
    const uLong crc = crc32(0, reinterpret_cast<const Bytef*>(text.data()), static_cast<uInt>(text.size()));
    std::string trailer;
    for (uLong v : {crc, static_cast<uLong>(text.size())})
        for (int b = 0; b < 4; ++b) trailer += static_cast<char>((v >> (8 * b)) & 0xff);
    return header + body + trailer;
}

}  // namespace

TEST_CASE("a header with a name, a comment, an extra field and its own CRC reads as any other") {
    const std::string text = random_payload(static_cast<size_t>(uniform(0, 200000)));
    const std::string member = member_with_every_header_field(text);
    const size_t pull = any_piece();
    CAPTURE(pull);
    const Outcome o = inflate_all(member + gzip(text, 1), pull, any_piece());
    CHECK(o.reason.empty());
    CHECK(o.text == text + text);

    std::string bad_hcrc = member;
    bad_hcrc[36] = static_cast<char>(bad_hcrc[36] ^ 0x40);  // the header CRC's first byte
    CHECK(inflate_all(bad_hcrc, pull, any_piece()).reason == "corrupt gzip data (header CRC mismatch)");
}

TEST_CASE("a trailer whose CRC-32 or length disagrees with the data is refused") {
    const std::string text = random_payload(static_cast<size_t>(uniform(1, 50000)));
    const std::string member = gzip(text, 6);
    for (size_t from_end = 1; from_end <= 8; ++from_end) {  // length bytes, then CRC bytes
        std::string damaged = member;
        damaged[damaged.size() - from_end] = static_cast<char>(damaged[damaged.size() - from_end] ^ 0x01);
        CAPTURE(from_end);
        CHECK(inflate_all(damaged, any_piece(), any_piece()).reason == "corrupt gzip data (CRC-32 or length check failed)");
    }
}
