// GzipStream: the decompressed bytes of a gzip file (RFC 1952). Each
// member's header is read here; its deflate data is inflated by ISA-L's
// igzip, which checks the trailer (CRC-32 and length). igzip rather than
// zlib for speed: a plain gzip file is inflated on one thread, which bounds
// the reading of a gzip database, and igzip inflates several times faster
// than zlib (docs/benchmarks.md has the reader's rate with each). The header
// not by igzip: version 2.30 (Debian 12)
// checks a header's own CRC (FHCRC) wrongly when the header spans two reads.
// Our own stream rather than htslib's or gzread's gzip layer because of what
// follows the last member: htslib fails on the zero padding that gzip
// accepts (tape blocks, some download tools), and gzread ignores anything
// there, so a second member with a damaged header would be dropped in
// silence. Here, as with `gzip -d`: more members are read on, zero bytes
// after the last one end the data, and anything else there is an error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace warpdp {

class GzipStream {
public:
    // Supplies compressed bytes: returns how many it put in dst, 0 at the
    // end of the input, -1 when it cannot read (reason: its errno).
    using Pull = std::function<std::ptrdiff_t(uint8_t* dst, size_t n)>;

    explicit GzipStream(Pull pull);
    ~GzipStream();
    GzipStream(const GzipStream&) = delete;
    GzipStream& operator=(const GzipStream&) = delete;

    // Up to n decompressed bytes into dst; 0 at the end of the data; -1
    // once the input has proved truncated, corrupt or unreadable
    // (failure_reason() says which). Bytes that precede the damage are
    // returned first, so a reader's line number lands near it.
    [[nodiscard]] std::ptrdiff_t read(char* dst, size_t n);
    const std::string& failure_reason() const noexcept { return reason_; }

private:
    enum class Between { another_member, end, failed };
    bool refill();
    bool next_byte(uint8_t& b);
    bool read_header();
    Between after_member();
    void fail(std::string reason);

    struct Inflater;
    std::unique_ptr<Inflater> inflater_;  // igzip's state (large: on the heap)
    Pull pull_;
    std::vector<uint8_t> in_;
    bool input_ended_ = false;  // pull_ returned 0
    bool in_header_ = true;     // the current member's header is still to be read
    bool in_member_ = true;     // inflate has not yet ended the current member
    bool done_ = false;
    std::string reason_;  // set once failed
};

}  // namespace warpdp
