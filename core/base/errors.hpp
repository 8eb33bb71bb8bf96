// The error types of warpdp. Library code throws; only tools/ turns an error
// into a one-line message and an exit code (see exit_code()).
//  - InputError: the user's input is wrong (names file, line, record).
//  - UsageError: the command line is wrong.
//  - ResourceError: a GPU, memory or the file system failed us.
//  - InternalError: a bug; carries the call and source location.
#pragma once

#include <cerrno>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace warpdp {

enum class ExitCode : int { ok = 0, usage = 1, input = 2, resource = 3, internal = 4 };

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
    virtual ExitCode exit_code() const noexcept = 0;
};

class UsageError : public Error {
public:
    using Error::Error;
    ExitCode exit_code() const noexcept override { return ExitCode::usage; }
};

class ResourceError : public Error {
public:
    using Error::Error;
    ExitCode exit_code() const noexcept override { return ExitCode::resource; }
};

class InternalError : public Error {
public:
    // The builtins (GCC and clang) rather than std::source_location, which
    // clang 14 with libstdc++ 12 lacks: the fuzz builds use clang.
    explicit InternalError(const std::string& what, const char* file = __builtin_FILE(),
                           int line = __builtin_LINE())
        : Error(where(file, line) + what) {}
    ExitCode exit_code() const noexcept override { return ExitCode::internal; }

private:
    static std::string where(const char* file, int line) {
        std::string s = file;
        s += ':';
        s += std::to_string(line);
        s += ": ";
        return s;
    }
};

// Bad input. what() reads "FILE:LINE: MESSAGE" (LINE omitted when 0); the
// pieces stay available for tests.
class InputError : public Error {
public:
    InputError(std::string file, uint64_t line, std::string message)
        : Error(format(file, line, message)), file_(std::move(file)), line_(line),
          message_(std::move(message)) {}
    const std::string& file() const noexcept { return file_; }
    uint64_t line() const noexcept { return line_; }
    const std::string& message() const noexcept { return message_; }
    ExitCode exit_code() const noexcept override { return ExitCode::input; }

private:
    static std::string format(const std::string& file, uint64_t line, const std::string& msg) {
        std::string s = file.empty() ? std::string("<input>") : file;
        if (line > 0) s += ":" + std::to_string(line);
        return s + ": " + msg;
    }
    std::string file_;
    uint64_t line_;
    std::string message_;
};

// errno values that say the system ran short (threads, memory, file
// descriptors, space: ulimit -u, -v, -n), not that the input is wrong.
inline bool is_resource_errno(int e) noexcept {
    return e == EAGAIN || e == ENOMEM || e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOSPC;
}

// A record's name as messages show it: quoted, and cut to its first 60
// bytes when longer (a 1 MB header would otherwise fill the terminal).
inline std::string quoted_name(const std::string& name) {
    constexpr size_t kShown = 60;
    return "\"" + (name.size() > kShown + 3 ? name.substr(0, kShown) + "..." : name) + "\"";
}

}  // namespace warpdp
