// The two result formats every tool writes:
//  - TSV: one header line "#col1<TAB>col2...", then tab-separated rows; tabs,
//    newlines and backslashes inside text fields are escaped as \t \n \\.
//  - JSON Lines: one object per row with the same field names; numbers stay
//    numbers, non-finite numbers become the strings "inf"/"-inf"/"nan", absent
//    values become null.
// Column order is fixed by the tool; each row supplies one Value per column.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/io/output_file.hpp"

namespace warpdp {

enum class Format { tsv, jsonl };
Format parse_format(const std::string& name);  // throws UsageError

// A number together with the text it prints as in TSV (tools fix the precision).
struct Number {
    double value;
    std::string text;
};
struct Absent {};  // "-" in TSV, null in JSON
using Value = std::variant<std::string, int64_t, Number, Absent>;

// Formatting helpers that tools share so equal numbers print equally everywhere.
Number fixed(double v, int decimals);  // "%.*f", "inf"/"-inf"/"nan" when not finite
Number general(double v, int digits);  // "%.*g"

class RecordWriter {
public:
    RecordWriter(OutputFile& out, Format format, std::vector<std::string> columns);
    void write_header();  // TSV header line; nothing for JSONL
    void write(const std::vector<Value>& row);
    Format format() const noexcept { return format_; }

private:
    OutputFile& out_;
    Format format_;
    std::vector<std::string> columns_;
    std::string line_;
};

// A TSV field's text: tab, newline, CR, NUL and backslash written as \t \n \r \0 \\.
std::string escape_tsv(const std::string& s);
// escape_tsv undone (a backslash before anything else stays as it is).
std::string unescape_tsv(const std::string& s);
// s as a JSON string, quoted and escaped; bytes that are not UTF-8 become
// U+FFFD, so the line stays valid JSON.
std::string json_string(const std::string& s);

}  // namespace warpdp
