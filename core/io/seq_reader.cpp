// SeqReader: the batcher, run either in the caller's thread or one batch
// ahead in a reader thread. The hand-over is a single slot guarded by one
// mutex: the thread owns the slot while it is empty, the caller while it is
// full; batches are swapped, not copied, so their capacity is reused.
#include "core/io/seq_reader.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

#include "core/io/seq_batcher.hpp"

namespace warpdp {

class SeqReader::Impl {
public:
    Impl(const std::string& path, const Alphabet& abc, const SeqReaderOptions& opt)
        : batcher_(path, abc, opt), prefetch_(opt.prefetch) {
        if (prefetch_) thread_ = std::thread([this] { run(); });
    }

    ~Impl() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        changed_.notify_all();
        if (thread_.joinable()) thread_.join();
    }

    bool next(SeqBatch& batch) {
        if (finished_) {
            batch.clear();
            return false;
        }
        bool more = false;
        try {
            more = prefetch_ ? take(batch) : fill(batch);
        } catch (...) {
            finished_ = true;
            batch.clear();
            throw;
        }
        if (!more) finished_ = true;
        records_ += batch.size();
        return more;
    }

    const std::string& path() const { return batcher_.path(); }
    uint64_t records() const { return records_; }
    uint64_t bytes() const { return bytes_; }

private:
    bool fill(SeqBatch& batch) {
        const bool more = batcher_.fill(batch);
        bytes_ = batcher_.bytes_consumed();
        return more;
    }

    // Caller side of the slot.
    bool take(SeqBatch& batch) {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return full_; });
        if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
        std::swap(batch, slot_);
        bytes_ = slot_bytes_;
        const bool more = slot_more_;
        full_ = false;
        lock.unlock();
        changed_.notify_all();
        return more;
    }

    // Reader thread: fills the slot whenever it is empty, until the end of
    // the input, an error, or the owner's destruction.
    void run() {
        for (;;) {
            {
                std::unique_lock lock(mutex_);
                changed_.wait(lock, [this] { return stop_ || !full_; });
                if (stop_) return;
            }
            bool more = false;
            std::exception_ptr error;
            try {
                more = batcher_.fill(slot_);
            } catch (...) {
                error = std::current_exception();
            }
            {
                std::lock_guard lock(mutex_);
                slot_more_ = more;
                slot_bytes_ = batcher_.bytes_consumed();
                error_ = error;
                full_ = true;
            }
            changed_.notify_all();
            if (!more) return;
        }
    }

    SeqBatcher batcher_;
    const bool prefetch_;
    bool finished_ = false;
    uint64_t records_ = 0;
    uint64_t bytes_ = 0;

    std::mutex mutex_;
    std::condition_variable changed_;
    bool stop_ = false;
    bool full_ = false;
    bool slot_more_ = false;
    uint64_t slot_bytes_ = 0;
    std::exception_ptr error_;
    SeqBatch slot_;
    std::thread thread_;  // last: started after every member it uses exists
};

SeqReader::SeqReader(const std::string& path, const Alphabet& abc, SeqReaderOptions opt)
    : impl_(std::make_unique<Impl>(path, abc, opt)) {}

SeqReader::~SeqReader() = default;

bool SeqReader::next(SeqBatch& batch) { return impl_->next(batch); }
const std::string& SeqReader::path() const { return impl_->path(); }
uint64_t SeqReader::records_read() const { return impl_->records(); }
uint64_t SeqReader::bytes_read() const { return impl_->bytes(); }

}  // namespace warpdp
