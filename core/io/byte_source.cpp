// ByteSource: the only place that talks to htslib. The first bytes, peeked
// at without consuming them (so pipes work too), choose the decoder: plain
// gzip goes to GzipStream (core/io/gzip_stream.hpp says why), plain text and
// BGZF to htslib, whose BGZF blocks libdeflate inflates. Besides bgzf_read's
// own error return we check, at the end of a BGZF (bgzip) stream, that the
// last block was the end-of-file marker: a bgzip file cut at a block
// boundary otherwise reads as valid but silently shorter, which would change
// the number of targets a search reports.
#include "core/io/byte_source.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>

#include <htslib/bgzf.h>
#include <htslib/hfile.h>

#include "core/base/errors.hpp"
#include "core/io/gzip_stream.hpp"

namespace warpdp {
namespace {

constexpr size_t kGzipHeader = 18;  // what it takes to tell BGZF from other gzip

bool gzip_magic(const uint8_t* head, ssize_t n) { return n >= 2 && head[0] == 0x1f && head[1] == 0x8b; }

// BGZF's header: gzip with one extra field, "BC" of two bytes (the block size).
bool bgzf_header(const uint8_t* head, ssize_t n) {
    return n >= static_cast<ssize_t>(kGzipHeader) && gzip_magic(head, n) && head[2] == 8 && (head[3] & 4) != 0 &&
           head[10] == 6 && head[11] == 0 && head[12] == 'B' && head[13] == 'C' && head[14] == 2 && head[15] == 0;
}

std::string strerror_or(int e, const char* otherwise) { return e != 0 ? std::strerror(e) : otherwise; }

// A file that cannot be opened for want of descriptors or memory is no
// fault of the input.
[[noreturn]] void cannot_open(const std::string& path, int e, const char* otherwise) {
    if (is_resource_errno(e)) throw ResourceError(path + ": cannot open: " + std::strerror(e));
    throw InputError(path, 0, "cannot open: " + strerror_or(e, otherwise));
}

}  // namespace

ByteSource::ByteSource(const std::string& path) {
    errno = 0;
    hFILE* h = hopen(path.c_str(), "r");
    if (h == nullptr) cannot_open(path, errno, "unreadable file");
    uint8_t head[kGzipHeader];
    errno = 0;
    const ssize_t n = hpeek(h, head, sizeof head);
    if (n < 0) {
        const int e = errno;
        hclose_abruptly(h);
        throw InputError(path, 0, "read error: " + strerror_or(e, "unknown"));
    }
    if (gzip_magic(head, n) && !bgzf_header(head, n)) {
        // (A BGZF file cut within its first 18 bytes lands here too, and
        // reads as the truncated gzip file it is.)
        hfile_ = h;
        gzip_ = std::make_unique<GzipStream>([h](uint8_t* dst, size_t k) -> std::ptrdiff_t { return hread(h, dst, k); });
        return;
    }
    errno = 0;
    fp_ = bgzf_hopen(h, "r");
    if (fp_ == nullptr) {
        const int e = errno;
        hclose_abruptly(h);
        cannot_open(path, e, "unreadable or corrupt file");
    }
}

ByteSource::~ByteSource() {
    gzip_.reset();
    if (hfile_ != nullptr) hclose_abruptly(hfile_);  // reading only: nothing to flush or report
    if (fp_ != nullptr) (void)bgzf_close(fp_);
}

std::ptrdiff_t ByteSource::read(char* dst, size_t n) {
    if (gzip_) {
        const std::ptrdiff_t got = gzip_->read(dst, n);
        if (got < 0) reason_ = gzip_->failure_reason();
        return got;
    }
    errno = 0;
    const ssize_t got = bgzf_read(fp_, dst, n);
    if (got < 0) {
        // htslib reports a short read of a compressed block as an I/O error
        // too, so for compressed input every failure reads as truncation or
        // corruption; only plain input can fail for reasons errno knows.
        const int e = errno;
        if (fp_->is_compressed || fp_->is_gzip) reason_ = "truncated or corrupt compressed data";
        else reason_ = std::string("read error: ") + (e != 0 ? std::strerror(e) : "unknown");
        return -1;
    }
    if (got == 0 && fp_->is_compressed && !fp_->is_gzip && !fp_->last_block_eof) {
        reason_ = "truncated BGZF file: the end-of-file marker block is missing";
        return -1;
    }
    return static_cast<std::ptrdiff_t>(got);
}

std::string ByteSource::failure_reason() const { return reason_; }

bool ByteSource::compressed() const noexcept { return gzip_ || fp_->is_compressed || fp_->is_gzip; }

}  // namespace warpdp
