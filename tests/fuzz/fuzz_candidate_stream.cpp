// libFuzzer harness for gpu-viterbi's reading of gpu-msv's candidate stream
// (TSV with its header, or JSON Lines; --candidates FILE): arbitrary bytes
// must either read as candidates or raise an InputError. What is read must
// also survive a round trip: the rows written back as gpu-msv writes them
// (JSON strings, and TSV escapes where the rows agree on the place columns)
// read again as the same candidates, names compared as gpu-viterbi compares
// them (stream_name_is: JSON replaces bytes that are not UTF-8).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/pipeline/candidate_stream.hpp"
#include "core/io/record_writer.hpp"
#include "fuzz_support.hpp"

using warpdp::fuzz::require;

namespace {

std::string tsv_of(const std::vector<warpdp::Candidate>& rows, bool places) {
    std::string s = "#model\tmodel_acc\ttarget\ttarget_len\tmsv_bits\tmsv_pvalue\tbias_bits\tbias_pvalue\tpassed";
    s += places ? "\tmodel_index\ttarget_index\n" : "\n";
    for (const auto& c : rows) {
        s += warpdp::escape_tsv(c.model) + "\t-\t" + warpdp::escape_tsv(c.target) + "\t" + std::to_string(c.target_len) +
             "\t2.5\t0.01\t" + (c.bias_on ? "2.5\t0.01\t" : "-\t-\t") + (c.passed ? "1" : "0");
        if (places) s += "\t" + std::to_string(*c.model_index) + "\t" + std::to_string(*c.target_index);
        s += "\n";
    }
    return s;
}

std::string jsonl_of(const std::vector<warpdp::Candidate>& rows) {
    std::string s;
    for (const auto& c : rows) {
        s += "{\"model\":" + warpdp::json_string(c.model) + ",\"model_acc\":null,\"target\":" +
             warpdp::json_string(c.target) + ",\"target_len\":" + std::to_string(c.target_len) +
             ",\"msv_bits\":2.5,\"msv_pvalue\":0.01,\"bias_bits\":" + (c.bias_on ? "2.5" : "null") +
             ",\"bias_pvalue\":" + (c.bias_on ? "0.01" : "null") + ",\"passed\":" + (c.passed ? "1" : "0");
        if (c.model_index) s += ",\"model_index\":" + std::to_string(*c.model_index);
        if (c.target_index) s += ",\"target_index\":" + std::to_string(*c.target_index);
        s += "}\n";
    }
    return s;
}

// `again` (read back from a rewrite of `first`) holds the same candidates.
void require_same(const std::vector<warpdp::Candidate>& first, const std::vector<warpdp::Candidate>& again,
                  bool places) {
    require(again.size() == first.size());
    for (size_t i = 0; i < first.size(); ++i) {
        const auto &a = first[i], &b = again[i];
        require(warpdp::stream_name_is(b, b.model, a.model) && warpdp::stream_name_is(b, b.target, a.target));
        require(b.target_len == a.target_len && b.bias_on == a.bias_on && b.passed == a.passed);
        if (places) require(b.model_index == a.model_index && b.target_index == a.target_index);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<warpdp::Candidate> rows;
    try {
        const warpdp::CandidateStream s = warpdp::read_candidates(warpdp::fuzz::input_path(data, size));
        require(!s.blank || s.rows.empty());
        for (size_t i = 0; i < s.rows.size(); ++i) require(s.rows[i].line > (i > 0 ? s.rows[i - 1].line : 0));
        rows = s.rows;
    } catch (const warpdp::InputError&) {
        return 0;  // bad input, reported properly
    }
    require_same(rows, warpdp::read_candidates(warpdp::fuzz::input_path(jsonl_of(rows))).rows, true);
    bool places = true, none = true;
    for (const auto& c : rows) {
        places = places && c.model_index && c.target_index;
        none = none && !c.model_index && !c.target_index;
    }
    if (places || none) require_same(rows, warpdp::read_candidates(warpdp::fuzz::input_path(tsv_of(rows, places))).rows, places);
    return 0;
}
