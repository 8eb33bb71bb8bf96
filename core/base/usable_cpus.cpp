// usable_cpus: sched_getaffinity, then the cgroup v2 quota of this process.
#include "core/base/usable_cpus.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include <sched.h>

namespace warpdp {

unsigned cpus_of_cgroup_quota(const char* text) {
    char quota[32] = {0};
    unsigned long long period = 0;
    if (std::sscanf(text, "%31s %llu", quota, &period) != 2 || period == 0) return 0;
    if (std::strcmp(quota, "max") == 0) return 0;
    char* end = nullptr;
    const unsigned long long q = std::strtoull(quota, &end, 10);
    if (end == quota || *end != '\0' || q == 0) return 0;
    return static_cast<unsigned>((q + period - 1) / period);
}

namespace {
// The cgroup v2 quota of this process's own cgroup ("0::/path" in
// /proc/self/cgroup), or 0.
unsigned cgroup_quota_cpus() {
    std::FILE* f = std::fopen("/proc/self/cgroup", "r");
    if (!f) return 0;
    char line[4096];
    std::string path;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "0::", 3) == 0) {
            path = line + 3;
            while (!path.empty() && (path.back() == '\n' || path.back() == '\r')) path.pop_back();
        }
    std::fclose(f);
    if (path.empty()) return 0;
    // A quota anywhere up the tree limits us; the tightest one counts.
    unsigned best = 0;
    for (;;) {
        const std::string file = "/sys/fs/cgroup" + (path == "/" ? std::string() : path) + "/cpu.max";
        if (std::FILE* m = std::fopen(file.c_str(), "r")) {
            char text[128] = {0};
            if (std::fgets(text, sizeof text, m)) {
                const unsigned c = cpus_of_cgroup_quota(text);
                if (c && (best == 0 || c < best)) best = c;
            }
            std::fclose(m);
        }
        if (path == "/" || path.empty()) break;
        const size_t slash = path.rfind('/');
        path = slash == 0 ? "/" : path.substr(0, slash);
    }
    return best;
}
}  // namespace

unsigned usable_cpus() {
    unsigned n = 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0) n = static_cast<unsigned>(CPU_COUNT(&set));
    if (n == 0) n = std::thread::hardware_concurrency();
    if (const unsigned quota = cgroup_quota_cpus(); quota) n = std::min(n, quota);
    return std::max(1u, n);
}

}  // namespace warpdp
