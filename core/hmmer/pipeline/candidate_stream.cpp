// Candidate stream parser (TSV or JSONL from gpu-msv).
#include "core/hmmer/pipeline/candidate_stream.hpp"

#include <charconv>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/errors.hpp"
#include "core/hmmer/pipeline/candidate_columns.hpp"
#include "core/io/byte_source.hpp"
#include "core/io/record_writer.hpp"

namespace warpdp {
namespace {

// The stream's lines, from plain text, gzip or bgzip (gpu-msv's rows are
// often kept gzipped), without their '\n'.
class Lines {
public:
    Lines(const std::string& path, const std::string& name) : src_(open(path, name)), name_(name) {
        buf_.resize(1 << 16);
    }

    bool next(std::string& line) {
        line.clear();
        for (;;) {
            if (pos_ == end_) {
                const std::ptrdiff_t n = ended_ ? 0 : src_->read(buf_.data(), buf_.size());
                if (n < 0) throw InputError(name_, number_ + 1, src_->failure_reason());
                if (n == 0) {
                    ended_ = true;
                    if (!partial_) return false;
                    partial_ = false;
                    ++number_;
                    return true;
                }
                pos_ = 0;
                end_ = static_cast<size_t>(n);
            }
            const char* start = buf_.data() + pos_;
            const void* nl = std::memchr(start, '\n', end_ - pos_);
            const size_t len = nl ? static_cast<size_t>(static_cast<const char*>(nl) - start) : end_ - pos_;
            line.append(start, len);
            pos_ += nl ? len + 1 : len;
            partial_ = !nl;
            if (nl) {
                ++number_;
                return true;
            }
        }
    }
    uint64_t number() const noexcept { return number_; }

private:
    // ByteSource names the file as given; stdin is "<stdin>" in our messages.
    static std::unique_ptr<ByteSource> open(const std::string& path, const std::string& name) {
        try {
            return std::make_unique<ByteSource>(path);
        } catch (const InputError& e) {
            throw InputError(name, e.line(), e.message());
        }
    }

    std::unique_ptr<ByteSource> src_;
    std::string name_;
    std::vector<char> buf_;
    size_t pos_ = 0, end_ = 0;
    bool ended_ = false, partial_ = false;
    uint64_t number_ = 0;
};


uint64_t parse_u64(const std::string& s, const std::string& file, uint64_t line, const char* what) {
    uint64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size())
        throw InputError(file, line, std::string("bad ") + what + " '" + s + "'");
    return v;
}

std::vector<std::string> split_tabs(const std::string& line) {
    std::vector<std::string> f;
    size_t start = 0;
    for (;;) {
        const size_t tab = line.find('\t', start);
        f.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
        if (tab == std::string::npos) break;
        start = tab + 1;
    }
    return f;
}

Candidate from_tsv(const std::vector<std::string>& f, const std::map<std::string, size_t>& col,
                   const std::string& file, uint64_t line) {
    if (f.size() != col.size())
        throw InputError(file, line, "expected " + std::to_string(col.size()) + " tab-separated fields, found " +
                                         std::to_string(f.size()));
    const auto field = [&](MsvColumn k) -> const std::string& { return f[col.at(column_name(k))]; };
    const auto index = [&](MsvColumn k) -> std::optional<uint64_t> {
        const auto it = col.find(column_name(k));
        if (it == col.end()) return std::nullopt;
        return parse_u64(f[it->second], file, line, column_name(k));
    };
    Candidate c;
    c.line = line;
    c.model = unescape_tsv(field(MsvColumn::model));
    c.target = unescape_tsv(field(MsvColumn::target));
    c.target_len = parse_u64(field(MsvColumn::target_len), file, line, column_name(MsvColumn::target_len));
    c.model_index = index(MsvColumn::model_index);
    c.target_index = index(MsvColumn::target_index);
    c.bias_on = field(MsvColumn::bias_pvalue) != "-";
    const auto& passed = field(MsvColumn::passed);
    if (passed != "0" && passed != "1") throw InputError(file, line, "bad passed flag '" + passed + "'");
    c.passed = passed == "1";
    return c;
}

Candidate from_json(const std::string& text, const std::string& file, uint64_t line) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw InputError(file, line, std::string("not a JSON object: ") + e.what());
    }
    if (!j.is_object()) throw InputError(file, line, "not a JSON object");
    for (const MsvColumn k : kCandidateColumnsNeeded)
        if (!j.contains(column_name(k)))
            throw InputError(file, line, std::string("missing field \"") + column_name(k) + "\"");
    Candidate c;
    c.line = line;
    c.from_json = true;
    // A whole number, as gpu-msv writes it: nlohmann would convert 0.7,
    // 1e30 or -1 (and true) without a word.
    auto whole = [&](MsvColumn k) -> uint64_t {
        const auto& v = j[column_name(k)];
        if (!v.is_number_unsigned())
            throw InputError(file, line, std::string("bad ") + column_name(k) + " " + v.dump());
        return v.get<uint64_t>();
    };
    try {
        c.model = j[column_name(MsvColumn::model)].get<std::string>();
        c.target = j[column_name(MsvColumn::target)].get<std::string>();
        c.target_len = whole(MsvColumn::target_len);
        if (j.contains(column_name(MsvColumn::model_index))) c.model_index = whole(MsvColumn::model_index);
        if (j.contains(column_name(MsvColumn::target_index))) c.target_index = whole(MsvColumn::target_index);
        c.bias_on = !j[column_name(MsvColumn::bias_pvalue)].is_null();
        const uint64_t passed = whole(MsvColumn::passed);
        if (passed != 0 && passed != 1) throw InputError(file, line, "bad passed flag");
        c.passed = passed == 1;
    } catch (const nlohmann::json::exception& e) {
        throw InputError(file, line, std::string("bad field type: ") + e.what());
    }
    return c;
}

}  // namespace

bool stream_name_is(const Candidate& c, const std::string& stream_name, const std::string& original) {
    if (stream_name == original) return true;
    // Only a name holding U+FFFD can be a replaced one.
    return c.from_json && stream_name.find("\xEF\xBF\xBD") != std::string::npos &&
           json_string(stream_name) == json_string(original);
}

CandidateStream read_candidates(const std::string& path) {
    const std::string name = path == "-" ? std::string("<stdin>") : path;
    Lines in(path, name);
    CandidateStream out;
    std::map<std::string, size_t> col;  // TSV column positions, from the header
    enum class Kind { unknown, tsv, jsonl } kind = Kind::unknown;
    std::string text, header;
    while (in.next(text)) {
        const uint64_t line = in.number();
        if (!text.empty() && text.back() == '\r') text.pop_back();
        if (text.find_first_not_of(" \t") == std::string::npos) continue;
        out.blank = false;
        if (kind == Kind::unknown) {
            if (text[0] == '{') {
                kind = Kind::jsonl;
            } else if (text[0] == '#') {
                kind = Kind::tsv;
                header = text;
                const auto names = split_tabs(text.substr(1));
                // A name twice would leave a column index past the row's
                // fields, which are counted against the distinct names.
                for (size_t i = 0; i < names.size(); ++i)
                    if (!col.emplace(names[i], i).second)
                        throw InputError(name, line, "header names the column \"" + names[i] + "\" twice");
                for (const MsvColumn k : kCandidateColumnsNeeded)
                    if (!col.count(column_name(k)))
                        throw InputError(name, line, std::string("header lacks the column \"") + column_name(k) +
                                                         "\" (is this gpu-msv output?)");
                continue;
            } else {
                throw InputError(name, line, "not a gpu-msv candidate stream (expected a '#' TSV header or JSON Lines)");
            }
        }
        if (kind == Kind::tsv) {
            if (text == header) continue;
            out.rows.push_back(from_tsv(split_tabs(text), col, name, line));
        } else {
            out.rows.push_back(from_json(text, name, line));
        }
    }
    return out;
}

}  // namespace warpdp
