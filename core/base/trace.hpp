// A timeline of a run, for finding where its time goes: with WARPDP_TRACE set
// (not empty) in the environment, each event prints "warpdp-trace <seconds since the
// epoch> <event> <chunk> <process CPU seconds>" on stderr at once (the clock of
// bash's EPOCHREALTIME, so a wrapper's own events line up with a tool's; the
// CPU time, all threads' user + system, shows how many cores each stretch
// kept busy). Unset, an event costs one branch. docs/benchmarks.md shows
// timelines made with it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace warpdp {

inline bool tracing() {
    static const bool on = [] {
        const char* v = std::getenv("WARPDP_TRACE");
        return v != nullptr && *v != '\0';  // set and not empty, as the wrapper's test reads it
    }();
    return on;
}

inline void trace_event(const char* event, uint64_t chunk = 0) {
    if (!tracing()) return;
    timespec ts{}, cpu{};
    clock_gettime(CLOCK_REALTIME, &ts);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
    std::fprintf(stderr, "warpdp-trace %lld.%06ld %s %llu %lld.%03ld\n", static_cast<long long>(ts.tv_sec),
                 ts.tv_nsec / 1000, event, static_cast<unsigned long long>(chunk), static_cast<long long>(cpu.tv_sec),
                 cpu.tv_nsec / 1000000);
}

}  // namespace warpdp
