// The process-wide side of EngineStart: may a start be left running, and is
// one still running.
#include "tools/common/engine_start.hpp"

namespace warpdp {

namespace {
std::atomic<bool> g_abandon_allowed{false};
}  // namespace

namespace detail {
std::atomic<int>& running_starts() noexcept {
    static std::atomic<int> n{0};
    return n;
}
}  // namespace detail

void allow_abandoned_starts() noexcept { g_abandon_allowed = true; }
bool abandoned_starts_allowed() noexcept { return g_abandon_allowed; }
bool starts_still_running() noexcept { return detail::running_starts() > 0; }

}  // namespace warpdp
