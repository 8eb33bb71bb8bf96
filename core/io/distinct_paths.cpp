// Outputs that would overwrite an input or each other, refused up front.
#include "core/io/distinct_paths.hpp"

#include <filesystem>
#include <system_error>

#include <sys/stat.h>

#include "core/base/errors.hpp"

namespace warpdp {

namespace fs = std::filesystem;

namespace {

bool names_a_stream(const std::string& path) { return path.empty() || path == "-"; }

// A device, FIFO or socket, links followed: OutputFile writes it in place,
// and two outputs may share it. (A link to a regular file is checked as
// that file: written through, it would replace the file's content.)
bool shareable(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
    std::error_code ec;
    if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec) && !ec;
    const fs::path ca = fs::weakly_canonical(fs::absolute(a, ec), ec);
    if (ec) return a == b;
    const fs::path cb = fs::weakly_canonical(fs::absolute(b, ec), ec);
    if (ec) return a == b;
    return ca == cb;
}

void refuse_shared_paths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
    for (size_t i = 0; i < outputs.size(); ++i) {
        const NamedPath& out = outputs[i];
        if (out.path == "-")
            for (size_t j = 0; j < i; ++j)
                if (outputs[j].path == "-")
                    throw UsageError(outputs[j].option + " and " + out.option +
                                     " both write to stdout: give one of them a file");
        if (names_a_stream(out.path) || shareable(out.path)) continue;
        for (const NamedPath& in : inputs)
            if (!names_a_stream(in.path) && same_file(out.path, in.path))
                throw UsageError(out.option + " " + out.path + " is the input of " + in.option +
                                 ": writing it would replace that input");
        for (size_t j = 0; j < i; ++j)
            if (!names_a_stream(outputs[j].path) && same_file(out.path, outputs[j].path))
                throw UsageError(outputs[j].option + " and " + out.option + " both name " + out.path +
                                 ": one output would replace the other");
    }
}

}  // namespace warpdp
