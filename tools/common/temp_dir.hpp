// A private scratch directory for a tool's intermediate files (the files it
// hands to child processes), removed with everything in it when its owner
// goes: on success, on an error, and on a stop signal, which a
// StopSignalWatch turns into an unwinding stack (the handler itself could
// not remove a tree safely, and a child may still write there until it has
// been stopped: declare the TempDir before the children, so that they go
// first). Outputs the user asked for do not belong here: they are
// OutputFiles, written beside their target and renamed into place.
#pragma once

#include <string>

namespace warpdp {

class TempDir {
public:
    // Made under $TMPDIR (else /tmp), as mktemp -d makes it: mode 0700, named
    // `prefix` and a random suffix. Throws ResourceError.
    explicit TempDir(const std::string& prefix);
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::string& path() const noexcept { return path_; }
    // path()/name
    std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

}  // namespace warpdp
