// Decompressed bytes of one input file, plain text, gzip or bgzip, told
// apart by their first bytes ("-" = stdin).
// Kept apart from the parser so that the parser only sees bytes and the
// htslib handle has exactly one owner.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

struct BGZF;
struct hFILE;

namespace warpdp {

class GzipStream;

class ByteSource {
public:
    // Throws InputError(path, 0, "cannot open: <strerror>") when the file cannot be opened.
    explicit ByteSource(const std::string& path);
    ~ByteSource();
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;

    // Reads up to n bytes into dst; 0 means the end of the input. Returns -1
    // when the data are unreadable (I/O error, corrupt or truncated
    // compression); failure_reason() then says why. The caller knows the line
    // number and therefore raises the error.
    [[nodiscard]] std::ptrdiff_t read(char* dst, size_t n);
    std::string failure_reason() const;
    // gzip or bgzip (as opposed to plain text).
    bool compressed() const noexcept;

private:
    BGZF* fp_ = nullptr;                // plain text or BGZF
    hFILE* hfile_ = nullptr;            // gzip: the file under gzip_
    std::unique_ptr<GzipStream> gzip_;  // gzip other than BGZF
    std::string reason_;
};

}  // namespace warpdp
