// AsyncOutputFile: a queue of texts drained into an OutputFile by one thread.
#include "core/io/async_output.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <utility>

#include "core/io/output_file.hpp"

namespace warpdp {

struct AsyncOutputFile::State {
    std::string path;
    std::mutex mu;
    std::condition_variable cv;
    std::deque<std::string> queue;
    bool closing = false;    // commit(): write what is queued, then commit
    bool abandoned = false;  // destroyed uncommitted: stop, commit nothing
    std::exception_ptr failure;
};

namespace {

void drain(const std::shared_ptr<AsyncOutputFile::State>& s) {
    try {
        // Opened once there is something to write (or to commit): a reader
        // of a FIFO then never sees an empty, finished input from a writer
        // that failed before it wrote anything.
        {
            std::unique_lock<std::mutex> lock(s->mu);
            s->cv.wait(lock, [&] { return s->abandoned || s->closing || !s->queue.empty(); });
            if (s->abandoned) return;
        }
        OutputFile out(s->path);
        for (;;) {
            std::string text;
            bool more = false;
            {
                std::unique_lock<std::mutex> lock(s->mu);
                s->cv.wait(lock, [&] { return s->abandoned || s->closing || !s->queue.empty(); });
                if (s->abandoned) return;
                if (s->queue.empty()) break;  // closing, and everything is written
                text = std::move(s->queue.front());
                s->queue.pop_front();
                more = !s->queue.empty();
            }
            out.write(text);
            // Once the queue is drained, what was written goes out now, not
            // when the stream's 1 MiB buffer fills: the reader of a FIFO
            // (hmmsearch) starts on each text as soon as it is written.
            if (!more) out.flush();
        }
        out.commit();
    } catch (...) {
        std::lock_guard<std::mutex> lock(s->mu);
        s->failure = std::current_exception();
    }
}

}  // namespace

AsyncOutputFile::AsyncOutputFile(std::string path) : state_(std::make_shared<State>()) {
    state_->path = std::move(path);
    thread_ = std::thread([s = state_] { drain(s); });
}

AsyncOutputFile::~AsyncOutputFile() {
    if (!thread_.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(state_->mu);
        state_->abandoned = true;
    }
    state_->cv.notify_all();
    thread_.detach();  // the state lives on with the thread
}

void AsyncOutputFile::write(std::string text) {
    {
        std::lock_guard<std::mutex> lock(state_->mu);
        if (state_->failure) std::rethrow_exception(state_->failure);
        state_->queue.push_back(std::move(text));
    }
    state_->cv.notify_one();
}

void AsyncOutputFile::commit() {
    {
        std::lock_guard<std::mutex> lock(state_->mu);
        state_->closing = true;
    }
    state_->cv.notify_one();
    thread_.join();
    if (state_->failure) std::rethrow_exception(state_->failure);
}

}  // namespace warpdp
