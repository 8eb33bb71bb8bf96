// Candidate stream parser (TSV or JSONL from gpu-msv).
#include "core/hmmer/pipeline/candidate_stream.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "core/base/errors.hpp"
#include "core/io/record_writer.hpp"

namespace warpdp {
namespace {

const char* kNeeded[] = {"model", "target", "target_len", "bias_pvalue", "passed"};

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
    Candidate c;
    c.line = line;
    c.model = unescape_tsv(f[col.at("model")]);
    c.target = unescape_tsv(f[col.at("target")]);
    c.target_len = parse_u64(f[col.at("target_len")], file, line, "target_len");
    if (const auto it = col.find("model_index"); it != col.end())
        c.model_index = parse_u64(f[it->second], file, line, "model_index");
    if (const auto it = col.find("target_index"); it != col.end())
        c.target_index = parse_u64(f[it->second], file, line, "target_index");
    c.bias_on = f[col.at("bias_pvalue")] != "-";
    const auto& passed = f[col.at("passed")];
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
    for (const char* k : kNeeded)
        if (!j.contains(k)) throw InputError(file, line, std::string("missing field \"") + k + "\"");
    Candidate c;
    c.line = line;
    c.from_json = true;
    // A whole number, as gpu-msv writes it: nlohmann would convert 0.7,
    // 1e30 or -1 (and true) without a word.
    auto whole = [&](const char* key) -> uint64_t {
        const auto& v = j[key];
        if (!v.is_number_unsigned()) throw InputError(file, line, std::string("bad ") + key + " " + v.dump());
        return v.get<uint64_t>();
    };
    try {
        c.model = j["model"].get<std::string>();
        c.target = j["target"].get<std::string>();
        c.target_len = whole("target_len");
        if (j.contains("model_index")) c.model_index = whole("model_index");
        if (j.contains("target_index")) c.target_index = whole("target_index");
        c.bias_on = !j["bias_pvalue"].is_null();
        const uint64_t passed = whole("passed");
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
    std::ifstream file;
    std::istream* in = &std::cin;
    const std::string name = path == "-" ? std::string("<stdin>") : path;
    if (path != "-") {
        file.open(path, std::ios::binary);
        if (!file) throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
        in = &file;
    }
    CandidateStream out;
    std::map<std::string, size_t> col;  // TSV column positions, from the header
    enum class Kind { unknown, tsv, jsonl } kind = Kind::unknown;
    std::string text, header;
    uint64_t line = 0;
    while (std::getline(*in, text)) {
        ++line;
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
                for (const char* k : kNeeded)
                    if (!col.count(k))
                        throw InputError(name, line, std::string("header lacks the column \"") + k +
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
    if (in->bad()) throw InputError(name, line, "read error");
    return out;
}

}  // namespace warpdp
