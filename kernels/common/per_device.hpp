// One host thread per device slot: the CUDA engines run each device's share
// of a call on its own thread, so that the devices work at once, and a
// failure on any of them surfaces as the call's exception.
#pragma once

#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace warpdp {

// Runs body(d) for every d in [0, n), each on its own thread, and
// meanwhile() on the calling thread while they run; once all have finished,
// rethrows the failure of meanwhile, else of the lowest failing d.
template <class Body, class Meanwhile>
void run_per_device(size_t n, Body&& body, Meanwhile&& meanwhile) {
    std::vector<std::exception_ptr> failure(n);
    {
        std::vector<std::jthread> workers;
        workers.reserve(n);
        for (size_t d = 0; d < n; ++d)
            workers.emplace_back([&, d] {
                try {
                    body(d);
                } catch (...) {
                    failure[d] = std::current_exception();
                }
            });
        meanwhile();
    }  // the workers join here, also when meanwhile throws
    for (auto& f : failure)
        if (f) std::rethrow_exception(f);
}

// The same with nothing to do meanwhile; one device runs on the calling
// thread.
template <class Body>
void run_per_device(size_t n, Body&& body) {
    if (n == 1) {
        body(size_t{0});
        return;
    }
    run_per_device(n, body, [] {});
}

}  // namespace warpdp
