// AsyncOutputFile: an OutputFile written by a thread of its own. write()
// queues the text and returns at once, so that a slow reader (hmmsearch
// reading a FIFO as it searches) never holds the caller up; the file is
// opened on that thread too, because opening a FIFO waits for its reader,
// and only when the first text (or commit()) comes. Each text reaches the
// file as soon as the thread has written it and nothing else is queued: a
// FIFO's reader works on it while the caller goes on.
#pragma once

#include <memory>
#include <string>
#include <thread>

namespace warpdp {

class AsyncOutputFile {
public:
    explicit AsyncOutputFile(std::string path);
    // Without commit(), the output is abandoned: the thread is left to finish
    // or die with the process (it may wait forever on a FIFO nobody opened),
    // and a regular file's temporary is removed as OutputFile does.
    ~AsyncOutputFile();
    AsyncOutputFile(const AsyncOutputFile&) = delete;
    AsyncOutputFile& operator=(const AsyncOutputFile&) = delete;

    void write(std::string text);
    // Waits until everything is written and committed (OutputFile::commit);
    // rethrows what failed on the thread (BrokenPipe, ResourceError).
    void commit();

    struct State;

private:
    std::shared_ptr<State> state_;
    std::thread thread_;
};

}  // namespace warpdp
