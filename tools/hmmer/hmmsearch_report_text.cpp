#include "tools/hmmer/hmmsearch_report_text.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace warpdp {

void appendf(std::string& out, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    va_list again;
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, fmt, args);
    va_end(args);
    if (n > 0) {
        const size_t at = out.size();
        out.resize(at + static_cast<size_t>(n) + 1);
        std::vsnprintf(out.data() + at, static_cast<size_t>(n) + 1, fmt, again);
        out.resize(at + static_cast<size_t>(n));
    }
    va_end(again);
}

int max_name_length(const std::vector<DomHit>& hits) {
    size_t w = 0;
    for (const DomHit& h : hits) w = std::max(w, h.name.size());
    return static_cast<int>(w);
}

int max_acc_length(const std::vector<DomHit>& hits) {
    size_t w = 0;
    for (const DomHit& h : hits) w = std::max(w, h.acc.size());
    return static_cast<int>(w);
}

int max_shown_length(const std::vector<DomHit>& hits) {
    size_t w = 0;
    for (const DomHit& h : hits) w = std::max(w, h.acc.empty() ? h.name.size() : h.acc.size());
    return static_cast<int>(w);
}

std::string table_tail(const TableTail& t) {
    std::string s = "#\n";
    appendf(s, "# Program:         %s\n", t.program.c_str());
    appendf(s, "# Version:         %s\n", t.version.c_str());
    s += "# Pipeline mode:   SEARCH\n";
    appendf(s, "# Query file:      %s\n", t.query_file.c_str());
    appendf(s, "# Target file:     %s\n", t.target_file.c_str());
    appendf(s, "# Option settings: %s\n", t.option_settings.c_str());
    appendf(s, "# Current dir:     %s\n", t.current_dir.c_str());
    appendf(s, "# Date:            %s\n", t.date.c_str());
    s += "# [ok]\n";
    return s;
}

}  // namespace warpdp
