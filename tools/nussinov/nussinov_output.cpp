// The --weights syntax and gpu-nussinov's writers (nussinov_output.hpp).
#include "tools/nussinov/nussinov_output.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

#include "core/base/errors.hpp"

namespace warpdp {

void parse_nussinov_weights(const std::string& spec, NussinovParams& p) {
    const std::string what = "--weights expects TYPE=N items like GC=3,AU=2,GU=1";
    if (spec.empty()) throw UsageError(what + ", not an empty value");
    bool seen[3] = {false, false, false};
    size_t at = 0;
    while (at <= spec.size()) {
        const size_t comma = std::min(spec.find(',', at), spec.size());
        const std::string item = spec.substr(at, comma - at);
        at = comma + 1;
        const size_t eq = item.find('=');
        if (eq == std::string::npos) throw UsageError(what + ", not \"" + item + "\"");
        std::string type = item.substr(0, eq);
        for (auto& c : type) {
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            if (c == 'T') c = 'U';
        }
        if (type.size() == 2 && type[0] > type[1]) std::swap(type[0], type[1]);
        const int k = type == "CG" ? 0 : type == "AU" ? 1 : type == "GU" ? 2 : -1;
        if (k < 0) throw UsageError("--weights: \"" + item.substr(0, eq) + "\" is not a pair type (GC, AU or GU)");
        if (seen[k]) throw UsageError("--weights names " + item.substr(0, eq) + " twice");
        seen[k] = true;
        const std::string num = item.substr(eq + 1);
        const bool digits = !num.empty() && num.size() <= 6 &&
                            std::all_of(num.begin(), num.end(), [](char c) { return c >= '0' && c <= '9'; });
        const long v = digits ? std::stol(num) : -1;
        if (v < 0 || v > kNussinovMaxWeight)
            throw UsageError("--weights: the weight of " + item.substr(0, eq) + " must be a whole number from 0 to " +
                             std::to_string(kNussinovMaxWeight) + ", not \"" + num + "\"");
        (k == 0 ? p.w_gc : k == 1 ? p.w_au : p.w_gu) = static_cast<int>(v);
        if (comma == spec.size()) break;
    }
}

NussinovFormat parse_nussinov_format(const std::string& name) {
    if (name == "tsv") return NussinovFormat::tsv;
    if (name == "jsonl") return NussinovFormat::jsonl;
    if (name == "vienna") return NussinovFormat::vienna;
    throw UsageError("unknown --format '" + name + "' (expected tsv, jsonl, vienna)");
}

NussinovWriter::NussinovWriter(OutputFile& out, NussinovFormat format, bool with_structure)
    : out_(out), format_(format), with_structure_(with_structure) {
    if (format == NussinovFormat::vienna) return;
    std::vector<std::string> cols{"id", "length", "score"};
    if (with_structure) {
        cols.push_back("pairs");
        cols.push_back("structure");
    }
    records_.emplace(out, format == NussinovFormat::tsv ? Format::tsv : Format::jsonl, cols);
}

void NussinovWriter::header() {
    if (records_) records_->write_header();
}

void NussinovWriter::write(const std::string& name, const std::string& desc, const std::string& letters,
                           uint64_t length, const NussinovFold& f) {
    if (records_) {
        std::vector<Value> row{name, static_cast<int64_t>(length), f.score};
        if (with_structure_) {
            row.emplace_back(static_cast<int64_t>(f.pairs));
            row.emplace_back(f.structure);
        }
        records_->write(row);
        return;
    }
    // RNAfold: ">" and the header line, the sequence, the structure and " (%6.2f)".
    char score[48];
    std::snprintf(score, sizeof score, " (%6.2f)\n", static_cast<double>(f.score));
    line_.clear();
    line_ += '>';
    line_ += name;
    if (!desc.empty()) line_ += ' ' + desc;
    line_ += '\n';
    line_ += letters;
    line_ += '\n';
    line_ += f.structure;
    line_ += score;
    out_.write(line_);
}

}  // namespace warpdp
