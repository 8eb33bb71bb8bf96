// The query models: the HMM reader's pass, then the pass that cuts the text.
#include "tools/hmmer/query_models.hpp"

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <utility>

#include <sys/stat.h>

#include "core/base/errors.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/io/byte_source.hpp"

namespace warpdp {

namespace {

// The first whitespace-delimited word of a line.
std::string_view first_word(std::string_view line) {
    size_t i = 0;
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    size_t j = i;
    while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
    return line.substr(i, j - i);
}

// Writes the models' texts, one file each, and tells which have the cutoff line.
class ModelCutter {
public:
    ModelCutter(std::string dir, std::string cutoff) : dir_(std::move(dir)), cutoff_(std::move(cutoff)) {}
    ~ModelCutter() {
        if (out_) std::fclose(out_);
    }
    ModelCutter(const ModelCutter&) = delete;
    ModelCutter& operator=(const ModelCutter&) = delete;

    void line(std::string_view text) {
        const std::string_view word = first_word(text);
        if (word.substr(0, 7) == "HMMER3/") start_model();
        if (!out_) return;  // (before the first model)
        if (in_header_ && word == "HMM") in_header_ = false;
        else if (in_header_ && word == cutoff_) has_cutoff_.back() = true;
        if (std::fwrite(text.data(), 1, text.size(), out_) != text.size() || std::fputc('\n', out_) == EOF)
            throw ResourceError("cannot write " + files_.back() + ": " + std::strerror(errno));
    }

    void finish() { close(); }
    const std::vector<std::string>& files() const noexcept { return files_; }
    const std::vector<bool>& has_cutoff() const noexcept { return has_cutoff_; }

private:
    void start_model() {
        close();
        files_.push_back(dir_ + "/model." + std::to_string(files_.size() + 1) + ".hmm");
        has_cutoff_.push_back(cutoff_.empty());
        in_header_ = true;
        out_ = std::fopen(files_.back().c_str(), "w");
        if (!out_) throw ResourceError("cannot write " + files_.back() + ": " + std::strerror(errno));
    }
    void close() {
        if (!out_) return;
        const bool ok = std::fclose(out_) == 0;
        out_ = nullptr;
        if (!ok) throw ResourceError("cannot write " + files_.back() + ": " + std::strerror(errno));
    }

    std::string dir_, cutoff_;
    std::vector<std::string> files_;
    std::vector<bool> has_cutoff_;
    std::FILE* out_ = nullptr;
    bool in_header_ = false;
};

void cut_models(const std::string& path, const std::string& shown_path, ModelCutter& cutter) {
    ByteSource src(path);
    std::vector<char> buf(1 << 20);
    std::string partial;  // a line that runs on into the next read
    uint64_t lines = 0;
    for (;;) {
        const std::ptrdiff_t n = src.read(buf.data(), buf.size());
        if (n < 0) throw InputError(shown_path, lines + 1, src.failure_reason());
        if (n == 0) break;
        std::string_view rest(buf.data(), static_cast<size_t>(n));
        for (size_t nl; (nl = rest.find('\n')) != std::string_view::npos; rest.remove_prefix(nl + 1)) {
            ++lines;
            if (partial.empty()) {
                cutter.line(rest.substr(0, nl));
            } else {
                partial.append(rest.substr(0, nl));
                cutter.line(partial);
                partial.clear();
            }
        }
        partial.append(rest);
    }
    if (!partial.empty()) cutter.line(partial);  // (a last line without its newline gets one)
    cutter.finish();
}

}  // namespace

ModelFileKind model_file_kind(const std::string& path, const std::string& shown_path) {
    if (struct stat st {}; ::stat(path.c_str(), &st) != 0 && errno == ENOENT &&
                           ::stat((path + ".h3m").c_str(), &st) == 0)
        return ModelFileKind::other_hmmer;  // (hmmsearch opens the binary in its place)
    auto refuse = [&](const std::string& why) { return InputError(shown_path, 0, why); };
    std::string head;
    try {
        ByteSource src(path);
        char buf[4096];
        while (head.size() < 64 * 1024) {
            const std::ptrdiff_t n = src.read(buf, sizeof buf);
            if (n < 0) throw refuse("cannot read the models: " + src.failure_reason());
            if (n == 0) break;
            head.append(buf, static_cast<size_t>(n));
            if (head.find('\n') != std::string::npos && head.find_first_not_of(" \t\r\n") != std::string::npos) break;
        }
    } catch (const InputError& e) {
        throw refuse(e.message());
    }
    if (head.empty()) throw refuse("empty model file");
    // hmmpress'd (or hmmconvert -b) models open with a magic number
    // 0xe8eded?? in either byte order: "hmm" and a version letter, each byte
    // with its high bit set.
    const auto u = [&](size_t i) { return static_cast<unsigned char>(head[i]); };
    if (head.size() >= 4 && ((u(3) == 0xe8 && u(2) == 0xed && u(1) == 0xed) ||
                             (u(0) == 0xe8 && u(1) == 0xed && u(2) == 0xed)))
        return ModelFileKind::other_hmmer;
    std::erase(head, '\0');
    if (head.compare(0, 7, "HMMER3/") == 0) return ModelFileKind::hmmer3_text;
    // The first word of the first line that is not blank.
    const size_t from = head.find_first_not_of(" \t\r\n");
    if (from == std::string::npos) throw refuse("empty model file (blank lines only)");
    std::string word(first_word(std::string_view(head).substr(from)).substr(0, 40));
    for (char& c : word)
        if (!std::isprint(static_cast<unsigned char>(c))) c = '?';
    if (word.compare(0, 7, "HMMER3/") == 0 || word.compare(0, 6, "HMMER2") == 0) return ModelFileKind::other_hmmer;
    throw refuse("not a HMMER model file: it starts with '" + word +
                 "', not a format line such as 'HMMER3/f'");
}

std::vector<QueryModel> split_query_models(const std::string& path, const std::string& shown_path,
                                           const std::string& dir, const std::string& cutoff) {
    std::vector<QueryModel> models;
    try {
        HmmReader reader(path);
        Hmm h;
        while (reader.next(h)) {
            QueryModel m;
            m.name = h.name;
            m.length = h.M;
            m.alph = h.alph;
            models.push_back(std::move(m));
        }
    } catch (const InputError& e) {
        if (e.file() != path || path == shown_path) throw;
        throw InputError(shown_path, e.line(), e.message());
    }
    ModelCutter cutter(dir, cutoff);
    cut_models(path, shown_path, cutter);
    if (cutter.files().size() != models.size())
        throw InternalError(shown_path + ": the HMM reader found " + std::to_string(models.size()) +
                            " models, the format lines " + std::to_string(cutter.files().size()));
    for (size_t i = 0; i < models.size(); ++i) {
        models[i].file = cutter.files()[i];
        models[i].has_cutoff = cutter.has_cutoff()[i];
    }
    return models;
}

std::vector<Hmm> read_query_hmms(const std::string& path, const std::string& shown_path, const std::string& cutoff,
                                 std::vector<QueryModel>& models) {
    std::vector<Hmm> hmms;
    try {
        hmms = read_all_hmms(path);
    } catch (const InputError& e) {
        if (e.file() != path || path == shown_path) throw;
        throw InputError(shown_path, e.line(), e.message());
    }
    models.clear();
    for (const Hmm& h : hmms) {
        QueryModel m;
        m.name = h.name;
        m.length = h.M;
        m.alph = h.alph;
        m.has_cutoff = cutoff.empty() || (cutoff == "GA" && h.ga.set) || (cutoff == "TC" && h.tc.set) ||
                       (cutoff == "NC" && h.nc.set);
        models.push_back(std::move(m));
    }
    return hmms;
}

}  // namespace warpdp
