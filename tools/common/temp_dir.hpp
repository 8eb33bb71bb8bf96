// A private scratch directory for a tool's intermediate files (the files it
// hands to child processes), removed with everything in it when its owner
// goes: on success, on an error, and on a stop signal, which a
// StopSignalWatch turns into an unwinding stack (the handler itself could
// not remove a tree safely, and a child may still write there until it has
// been stopped: declare the TempDir before the children, so that they go
// first). Outputs the user asked for do not belong here: they are
// OutputFiles, written beside their target and renamed into place.
//
// An owner killed outright (SIGKILL) leaves its directory behind. The name
// says whose it was (PREFIX.PID.HOST.XXXXXX, HOST a hash of the host name
// and the PID namespace, for a $TMPDIR shared between machines or
// containers), so that a later run can remove it once that process is gone:
// remove_stale_temp_dirs().
#pragma once

#include <string>
#include <vector>

namespace warpdp {

class TempDir {
public:
    // Made under $TMPDIR (else /tmp), as mktemp -d makes it: mode 0700, named
    // `prefix`, the owner and a random suffix. Throws ResourceError.
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

// Removes the TempDirs named `prefix` in $TMPDIR (else /tmp) that this user owns,
// that were made on this host and in this PID namespace, and whose owner
// process no longer exists (a process of another user under that PID counts
// as existing). Returns those it could not remove, with the reason, for the
// tool to warn about. Never throws.
std::vector<std::string> remove_stale_temp_dirs(const std::string& prefix);

}  // namespace warpdp
