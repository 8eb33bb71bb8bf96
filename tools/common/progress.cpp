// Progress: live or periodic lines on stderr.
#include "tools/common/progress.hpp"

#include <cstdio>
#include <cstdlib>

#include "tools/common/cli.hpp"

namespace warpdp {

namespace {
std::string count_text(double x) {
    char buf[32];
    if (x < 1e4) std::snprintf(buf, sizeof buf, "%.0f", x);
    else if (x < 1e6) std::snprintf(buf, sizeof buf, "%.1fk", x / 1e3);
    else if (x < 1e9) std::snprintf(buf, sizeof buf, "%.1fM", x / 1e6);
    else if (x < 1e12) std::snprintf(buf, sizeof buf, "%.2fG", x / 1e9);
    else std::snprintf(buf, sizeof buf, "%.2fT", x / 1e12);
    return buf;
}
std::string duration_text(double s) {
    char buf[32];
    const auto whole = static_cast<long long>(s + 0.5);
    if (whole < 60) std::snprintf(buf, sizeof buf, "%llds", whole);
    else if (whole < 3600) std::snprintf(buf, sizeof buf, "%lldm%02llds", whole / 60, whole % 60);
    else std::snprintf(buf, sizeof buf, "%lldh%02lldm", whole / 3600, whole / 60 % 60);
    return buf;
}
}  // namespace

Progress::Progress(std::string tool, const CommonOptions& common, std::string unit)
    : tool_(std::move(tool)), unit_(std::move(unit)), live_(common.progress), periodic_(common.progress_log),
      start_(std::chrono::steady_clock::now()), last_(start_) {
    if (const char* v = std::getenv("WARPDP_PROGRESS_SECONDS"); v && *v) {
        char* end = nullptr;
        const double s = std::strtod(v, &end);
        if (end != v && *end == '\0' && s >= 0) period_s_ = s;
    }
}

Progress::~Progress() {
    if (drawn_) std::fputc('\n', stderr);  // (a run that failed: its message starts a line of its own)
}

std::string Progress::line(uint64_t done, uint64_t total, double seconds, const std::string& unit,
                           const std::string& detail) {
    std::string s = count_text(static_cast<double>(done));
    if (total) {
        char pct[32];
        std::snprintf(pct, sizeof pct, " (%.1f%%)", 100.0 * static_cast<double>(done) / static_cast<double>(total));
        s += "/" + count_text(static_cast<double>(total)) + " " + unit + pct;
    } else {
        s += " " + unit;
    }
    if (!detail.empty()) s += ", " + detail;
    if (seconds > 0) {
        const double rate = static_cast<double>(done) / seconds;
        s += ", " + count_text(rate) + " " + unit + "/s";
        if (total && done && done <= total) s += ", " + duration_text(static_cast<double>(total - done) / rate) + " left";
    }
    s += ", " + duration_text(seconds) + " so far";
    return s;
}

void Progress::update(uint64_t done, const std::string& detail) {
    if (!live_ && !periodic_) return;
    const auto now = std::chrono::steady_clock::now();
    const double since_last = std::chrono::duration<double>(now - last_).count();
    if (since_last < (live_ ? 0.25 : period_s_)) return;
    last_ = now;
    const std::string text = line(done, total_, std::chrono::duration<double>(now - start_).count(), unit_, detail);
    if (live_) {
        std::fprintf(stderr, "\r%s: %s   ", tool_.c_str(), text.c_str());
        drawn_ = true;
    } else {
        std::fprintf(stderr, "%s: progress: %s\n", tool_.c_str(), text.c_str());
    }
    std::fflush(stderr);
}

void Progress::finish() {
    if (drawn_) std::fputc('\n', stderr);
    drawn_ = false;
}

}  // namespace warpdp
