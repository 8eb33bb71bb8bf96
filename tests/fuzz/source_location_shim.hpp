// Fuzz builds only (force-included): clang 14 with libstdc++ 12 lacks
// __builtin_source_location, so <source_location> declares nothing and
// core/errors.hpp would not compile. This stand-in offers the part of
// std::source_location that errors.hpp uses, built on the older builtins.
#pragma once

#include <source_location>

#if !__has_builtin(__builtin_source_location)
namespace std {
struct source_location {
    static constexpr source_location current(const char* file = __builtin_FILE(),
                                             unsigned line = __builtin_LINE()) noexcept {
        source_location s;
        s.file_ = file;
        s.line_ = line;
        return s;
    }
    constexpr const char* file_name() const noexcept { return file_; }
    constexpr unsigned line() const noexcept { return line_; }

private:
    const char* file_ = "";
    unsigned line_ = 0;
};
}  // namespace std
#endif
