// ByteSource: the only place that talks to htslib. Besides bgzf_read's own
// error return we check, at the end of a BGZF (bgzip) stream, that the last
// block was the end-of-file marker: a bgzip file cut at a block boundary
// otherwise reads as valid but silently shorter, which would change the
// number of targets a search reports.
#include "core/byte_source.hpp"

#include <cerrno>
#include <cstring>

#include <htslib/bgzf.h>

#include "core/errors.hpp"

namespace warpdp {

ByteSource::ByteSource(const std::string& path) {
    errno = 0;
    fp_ = bgzf_open(path.c_str(), "r");
    if (fp_ == nullptr) {
        const int e = errno;
        throw InputError(path, 0, std::string("cannot open: ") +
                                      (e != 0 ? std::strerror(e) : "unreadable or corrupt file"));
    }
}

ByteSource::~ByteSource() {
    if (fp_ != nullptr) (void)bgzf_close(fp_);  // reading only: nothing to flush or report
}

std::ptrdiff_t ByteSource::read(char* dst, size_t n) {
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

bool ByteSource::compressed() const noexcept { return fp_->is_compressed || fp_->is_gzip; }

}  // namespace warpdp
