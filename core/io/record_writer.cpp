// TSV and JSON Lines row formatting.
#include "core/io/record_writer.hpp"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/base/errors.hpp"

namespace warpdp {

Format parse_format(const std::string& name) {
    if (name == "tsv") return Format::tsv;
    if (name == "jsonl") return Format::jsonl;
    throw UsageError("unknown --format '" + name + "' (expected tsv or jsonl)");
}

namespace {
std::string non_finite_text(double v) {
    if (std::isnan(v)) return "nan";
    return v > 0 ? "inf" : "-inf";
}
}  // namespace

Number fixed(double v, int decimals) {
    if (!std::isfinite(v)) return {v, non_finite_text(v)};
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return {v, buf};
}

Number general(double v, int digits) {
    if (!std::isfinite(v)) return {v, non_finite_text(v)};
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return {v, buf};
}

std::string json_string(const std::string& s) {
    return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string escape_tsv(const std::string& s) {
    std::string r;
    r.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '\t': r += "\\t"; break;
            case '\n': r += "\\n"; break;
            case '\r': r += "\\r"; break;
            case '\0': r += "\\0"; break;
            case '\\': r += "\\\\"; break;
            default: r += c;
        }
    }
    return r;
}

std::string unescape_tsv(const std::string& s) {
    std::string r;
    r.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\\' || i + 1 == s.size()) {
            r += s[i];
            continue;
        }
        switch (s[i + 1]) {
            case 't': r += '\t'; break;
            case 'n': r += '\n'; break;
            case 'r': r += '\r'; break;
            case '0': r += '\0'; break;
            case '\\': r += '\\'; break;
            default: r += s[i]; continue;
        }
        ++i;
    }
    return r;
}

RecordWriter::RecordWriter(OutputFile& out, Format format, std::vector<std::string> columns)
    : out_(out), format_(format), columns_(std::move(columns)) {}

void RecordWriter::write_header() {
    if (format_ != Format::tsv) return;
    line_ = "#";
    for (size_t i = 0; i < columns_.size(); ++i) {
        if (i) line_ += '\t';
        line_ += columns_[i];
    }
    line_ += '\n';
    out_.write(line_);
}

void RecordWriter::write(const std::vector<Value>& row) {
    if (row.size() != columns_.size())
        throw InternalError("row has " + std::to_string(row.size()) + " values for " +
                            std::to_string(columns_.size()) + " columns");
    if (format_ == Format::tsv) {
        line_.clear();
        for (size_t i = 0; i < row.size(); ++i) {
            if (i) line_ += '\t';
            std::visit([&](const auto& v) {
                using T = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<T, std::string>) line_ += escape_tsv(v);
                else if constexpr (std::is_same_v<T, int64_t>) line_ += std::to_string(v);
                else if constexpr (std::is_same_v<T, Number>) line_ += v.text;
                else line_ += '-';
            }, row[i]);
        }
        line_ += '\n';
        out_.write(line_);
        return;
    }
    // Built by hand: the TSV text of a finite Number is already a valid JSON
    // number with the agreed precision, so both formats carry the same digits.
    line_ = "{";
    for (size_t i = 0; i < row.size(); ++i) {
        if (i) line_ += ',';
        line_ += nlohmann::json(columns_[i]).dump();
        line_ += ':';
        std::visit([&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::string>)
                line_ += json_string(v);
            else if constexpr (std::is_same_v<T, int64_t>) line_ += std::to_string(v);
            else if constexpr (std::is_same_v<T, Number>) {
                if (std::isfinite(v.value)) line_ += v.text;
                else line_ += '"' + v.text + '"';
            } else line_ += "null";
        }, row[i]);
    }
    line_ += "}\n";
    out_.write(line_);
}

}  // namespace warpdp
