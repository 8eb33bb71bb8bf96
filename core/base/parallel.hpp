// parallel_for / parallel_for_workers: the one thread loop of the CPU code
// (MSV engine, Viterbi engine, per-target MSV decisions). Threads take
// blocks of `grain` consecutive indices from an atomic counter; the body
// writes its result by index, so the output never depends on the thread
// count or on scheduling. The calling thread is worker 0, so one worker
// means no thread is started at all.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <iterator>
#include <mutex>
#include <thread>
#include <vector>

namespace warpdp {

// How many workers parallel_for_workers uses for n indices: at most
// `threads` (0 counts as 1), at most one per block, 0 when n == 0. Size
// per-worker scratch with it before the call.
inline unsigned parallel_workers(size_t n, unsigned threads, size_t grain) {
    const size_t blocks = (n + grain - 1) / grain;
    return static_cast<unsigned>(std::min<size_t>(std::max(threads, 1u), blocks));
}

// Calls body(worker, i) exactly once for each i in [0, n), worker in
// [0, parallel_workers(n, threads, grain)) naming the thread (for scratch
// owned by the caller). grain >= 1. The first exception a body throws stops
// the handing out of blocks and is rethrown here once every thread joined.
template <class Body>
void parallel_for_workers(size_t n, unsigned threads, size_t grain, Body&& body) {
    const unsigned workers = parallel_workers(n, threads, grain);
    std::atomic<size_t> next{0};
    std::exception_ptr failure;
    std::mutex failure_mu;
    auto work = [&](unsigned w) {
        try {
            for (size_t b; (b = next.fetch_add(grain, std::memory_order_relaxed)) < n;)
                for (size_t i = b, e = std::min(n, b + grain); i < e; ++i) body(w, i);
        } catch (...) {
            const std::lock_guard<std::mutex> lock(failure_mu);
            if (!failure) failure = std::current_exception();
            next.store(n, std::memory_order_relaxed);
        }
    };
    if (workers == 0) return;
    {
        std::vector<std::jthread> pool;
        pool.reserve(workers - 1);
        for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work, w);
        work(0);
    }  // jthreads join here
    if (failure) std::rethrow_exception(failure);
}

// parallel_for_workers for bodies that need no per-worker scratch: body(i).
template <class Body>
void parallel_for(size_t n, unsigned threads, size_t grain, Body&& body) {
    parallel_for_workers(n, threads, grain, [&body](unsigned, size_t i) { body(i); });
}

// The values keep_block(begin, end, out) appends to out for the blocks
// [begin, end) of `block` consecutive indices in [0, n), in index order,
// computed on `threads` threads, each block keeping only its own values. For
// filters that keep a few percent of 10^5-10^6 items: no array of an entry
// per item is written and then scanned on one thread; and a block may do
// part of its work for all its kept items at once.
template <class T, class KeepBlock>
std::vector<T> parallel_filter_blocks(size_t n, unsigned threads, size_t block, KeepBlock&& keep_block) {
    const size_t nblocks = (n + block - 1) / block;
    std::vector<std::vector<T>> kept(nblocks);
    parallel_for(nblocks, threads, 1,
                 [&](size_t b) { keep_block(b * block, std::min(n, (b + 1) * block), kept[b]); });
    std::vector<T> out;
    for (auto& k : kept) out.insert(out.end(), std::make_move_iterator(k.begin()), std::make_move_iterator(k.end()));
    return out;
}

// parallel_filter_blocks for one item at a time: the values keep(i) gives (a
// std::optional<T>) for i in [0, n), in index order.
template <class T, class Keep>
std::vector<T> parallel_filter(size_t n, unsigned threads, size_t block, Keep&& keep) {
    return parallel_filter_blocks<T>(n, threads, block, [&](size_t begin, size_t end, std::vector<T>& out) {
        for (size_t i = begin; i < end; ++i)
            if (auto v = keep(i)) out.push_back(std::move(*v));
    });
}

}  // namespace warpdp
