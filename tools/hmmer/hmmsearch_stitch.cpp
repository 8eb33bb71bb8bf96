// Stitching hmmsearch outputs: a line reader and the header lines that name files.
#include "tools/hmmer/hmmsearch_stitch.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/errors.hpp"
#include "core/io/output_file.hpp"

namespace warpdp {

namespace {

// The lines of a file, without their newlines.
class Lines {
public:
    explicit Lines(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "r")) {
        if (!f_) throw ResourceError("cannot read " + path + ": " + std::strerror(errno));
    }
    ~Lines() {
        std::free(buf_);
        std::fclose(f_);
    }
    Lines(const Lines&) = delete;
    Lines& operator=(const Lines&) = delete;

    bool next(std::string_view& line) {
        const ssize_t n = ::getline(&buf_, &cap_, f_);
        if (n < 0) {
            if (std::ferror(f_)) throw ResourceError("cannot read " + path_ + ": " + std::strerror(errno));
            return false;
        }
        line = std::string_view(buf_, static_cast<size_t>(n));
        if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
        ++number_;
        return true;
    }
    uint64_t number() const noexcept { return number_; }

private:
    std::string path_;
    std::FILE* f_;
    char* buf_ = nullptr;
    size_t cap_ = 0;
    uint64_t number_ = 0;
};

void put(OutputFile& out, std::string_view line) {
    out.write(line);
    out.write("\n");
}

bool starts_with(std::string_view line, std::string_view key) { return line.substr(0, key.size()) == key; }

// A header line "KEY<blanks>NAME" with the user's NAME, the blanks kept: true
// when `line` is that line.
bool put_named(OutputFile& out, std::string_view line, std::string_view key, const std::string& name) {
    if (!starts_with(line, key)) return false;
    size_t end = key.size();
    while (end < line.size() && line[end] == ' ') ++end;
    out.write(line.substr(0, end));
    put(out, name);
    return true;
}

}  // namespace

void stitch_main_output(const std::vector<std::string>& runs, const StitchedNames& names, OutputFile& out) {
    if (runs.empty()) return;
    {
        Lines first(runs.front());
        std::string_view line;
        while (first.next(line) && !starts_with(line, "Query:")) {
            if (starts_with(line, "# output directed to file:")) {
                if (!names.main_out.empty()) put_named(out, line, "# output directed to file:", names.main_out);
                continue;
            }
            if (put_named(out, line, "# query HMM file:", names.models) ||
                put_named(out, line, "# target sequence database:", names.targets) ||
                put_named(out, line, "# per-seq hits tabular output:", names.tbl_out) ||
                put_named(out, line, "# per-dom hits tabular output:", names.dom_out))
                continue;
            put(out, line);
        }
    }
    for (const std::string& run : runs) {
        Lines lines(run);
        std::string_view line;
        bool in_query = false;
        while (lines.next(line)) {
            if (starts_with(line, "Query:")) in_query = true;
            if (starts_with(line, "[ok]")) in_query = false;
            if (in_query) put(out, line);
        }
    }
    put(out, "[ok]");
}

void stitch_table(const std::vector<std::string>& runs, const StitchedNames& names, OutputFile& out) {
    if (runs.empty()) return;
    constexpr uint64_t kHeaderLines = 3;
    {
        Lines first(runs.front());
        std::string_view line;
        while (first.number() < kHeaderLines && first.next(line)) put(out, line);
    }
    for (const std::string& run : runs) {
        Lines lines(run);
        std::string_view line;
        while (lines.next(line)) {
            if (lines.number() <= kHeaderLines) continue;
            if (line == "#") break;
            put(out, line);
        }
    }
    Lines first(runs.front());
    std::string_view line;
    bool footer = false;
    while (first.next(line)) {
        footer = footer || line == "#";
        if (!footer) continue;
        if (put_named(out, line, "# Query file:", names.models) ||
            put_named(out, line, "# Target file:", names.targets))
            continue;
        put(out, line);
    }
}

namespace {
// "cannot write PATH: why", the why from OutputFile's error without the path
// it starts with.
ResourceError cannot_write(const std::string& path, const ResourceError& e) {
    std::string why = e.what();
    if (why.rfind(path + ": ", 0) == 0) why.erase(0, path.size() + 2);
    return ResourceError("cannot write " + path + ": " + why);
}
}  // namespace

namespace {

std::string shown(const std::string& path) { return path.empty() || path == "-" ? std::string("stdout") : path; }

// The order of delivery: files replaced atomically (regular files, new
// paths, symlinks to either), then whatever is written in place.
int delivery_rank(const std::string& path) {
    struct stat st {};
    if (path.empty() || path == "-") return 1;
    if (::stat(follow_symlinks(path).c_str(), &st) != 0 || S_ISREG(st.st_mode)) return 0;
    return 1;
}

}  // namespace

void deliver_outputs(const std::vector<PendingOutput>& outputs) {
    std::vector<std::pair<const PendingOutput*, std::unique_ptr<OutputFile>>> written;
    bool reader_gone = false;
    for (int rank = 0; rank < 2; ++rank) {
        for (const PendingOutput& o : outputs) {
            if (delivery_rank(o.path) != rank) continue;
            try {
                auto file = std::make_unique<OutputFile>(o.path);
                o.write(*file);
                file->flush();
                written.emplace_back(&o, std::move(file));
            } catch (const BrokenPipe&) {
                reader_gone = true;
            } catch (const ResourceError& e) {
                throw cannot_write(shown(o.path), e);
            }
        }
    }
    for (auto& [o, file] : written) {
        try {
            file->commit();
        } catch (const BrokenPipe&) {
            reader_gone = true;
        } catch (const ResourceError& e) {
            throw cannot_write(shown(o->path), e);
        }
    }
    if (reader_gone) throw BrokenPipe();
}

void deliver_stitched_outputs(const RunOutputs& runs, const StitchedNames& names) {
    std::vector<PendingOutput> outputs{
        {names.main_out, [&](OutputFile& f) { stitch_main_output(runs.main, names, f); }}};
    if (!names.tbl_out.empty())
        outputs.push_back({names.tbl_out, [&](OutputFile& f) { stitch_table(runs.tbl, names, f); }});
    if (!names.dom_out.empty())
        outputs.push_back({names.dom_out, [&](OutputFile& f) { stitch_table(runs.dom, names, f); }});
    deliver_outputs(outputs);
}

void copy_renamed(const std::string& run, const std::vector<std::pair<std::string, std::string>>& renames,
                  OutputFile& out) {
    struct stat st {};
    if (::stat(run.c_str(), &st) != 0 && errno == ENOENT) return;
    Lines lines(run);
    std::string_view line;
    std::string renamed;
    while (lines.next(line)) {
        if (line.empty() || line[0] != '#') {
            put(out, line);
            continue;
        }
        renamed.assign(line);
        for (const auto& [from, to] : renames) {
            if (from.empty()) continue;
            for (size_t at = 0; (at = renamed.find(from, at)) != std::string::npos; at += to.size())
                renamed.replace(at, from.size(), to);
        }
        put(out, renamed);
    }
}

void check_writable(const std::string& path) {
    if (path.empty() || path == "-") return;
    auto refuse = [&](int err) { return ResourceError("cannot write " + path + ": " + std::strerror(err)); };
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw refuse(EISDIR);
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        // Written in place: opened as it will be, but not truncated (a FIFO
        // without a reader yet is no refusal).
        const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd >= 0) {
            ::close(fd);
            return;
        }
        if (errno == ENXIO) return;
        throw refuse(errno);
    }
    try {
        OutputFile probe(path);  // (its temporary goes with it)
    } catch (const ResourceError& e) {
        throw cannot_write(path, e);
    }
}

}  // namespace warpdp
