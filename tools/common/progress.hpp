// A run's progress on stderr (docs/architecture.md, "Progress"): a live line
// redrawn on a terminal (or with --progress); when stderr is a file or a pipe
// (a batch job's log), a plain line every WARPDP_PROGRESS_SECONDS (default
// 30); nothing with --quiet or --no-progress. Each line says what is done,
// of how much when known, the rate, and the time left when it can be told.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace warpdp {

struct CommonOptions;

class Progress {
public:
    // unit: what is counted ("sequences", "pairs", ...).
    Progress(std::string tool, const CommonOptions& common, std::string unit);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    void set_total(uint64_t total) { total_ = total; }  // 0: unknown
    // `done` units so far; `detail` is added to the line ("chunk 3").
    void update(uint64_t done, const std::string& detail = {});
    // Ends a live line (a newline), once the work is done.
    void finish();

    // The text of one line (without the tool's name), for the tests.
    static std::string line(uint64_t done, uint64_t total, double seconds, const std::string& unit,
                            const std::string& detail);

private:
    std::string tool_, unit_;
    bool live_ = false, periodic_ = false, drawn_ = false;
    double period_s_ = 30;
    uint64_t total_ = 0;
    std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace warpdp
